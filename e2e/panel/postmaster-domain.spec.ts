// The postmaster changes the domain's catchall and anti-spam lists; rules are checked in the browser with the
// API's own schema, and what only the server knows (does the account exist?) comes back onto its field.
import { DEMO, expect, signInAs, test } from "./fixtures";

test.describe("domain settings", () => {
  test.beforeEach(async ({ page }) => {
    await signInAs(page, "postmaster");
    await page.goto("/domain");
    await expect(page.getByRole("heading", { level: 1, name: "Ustawienia domeny" })).toBeVisible();
  });

  test("changes the catchall to an account of the domain and keeps it", async ({ page }) => {
    const type = page.getByLabel("Rodzaj konta domyślnego");
    await type.selectOption("1");
    await expect(page.getByText("Poczta trafia na istniejące konto w tej domenie")).toBeVisible();
    const address = page.getByLabel("Adres konta domyślnego");
    await address.fill(`biuro@${DEMO.domain}`);
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Zapisano ustawienia domeny." })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel("Rodzaj konta domyślnego")).toHaveValue("1");
    await expect(page.getByLabel("Adres konta domyślnego")).toHaveValue(`biuro@${DEMO.domain}`);
  });

  test("the RBL, SPF and greylisting selects sit level in both languages, each with what it refuses", async ({
    page,
  }) => {
    for (const [language, hint] of [
      ["pl", "Pierwszą próbę nieznanego nadawcy"],
      ["en", "Defers an unknown sender's first attempt"],
    ] as const) {
      if (language === "en") await page.getByRole("button", { name: /English/ }).click();
      await expect(page.getByLabel("Greylisting", { exact: true })).toHaveAccessibleDescription(new RegExp(`^${hint}`));
      // A long label wrapped to two lines at 1280 px and pushed its select below the other two. Three to a row from
      // 1024 px, two below it (three cut their values short at 768 px).
      for (const width of [640, 768, 1024, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        const tops = await Promise.all(
          ["rbl", "spf", "greylist"].map(
            async (m) => (await page.locator(`select[name=spam_${m}_enabled]`).boundingBox())!.y,
          ),
        );
        const row = width >= 1024 ? tops : tops.slice(0, 2);
        expect(new Set(row).size, `${language} at ${width} px: ${tops.join(", ")}`).toBe(1);
        if (width < 1024)
          expect(tops[2], `${language} at ${width} px: greylisting on the next row`).toBeGreaterThan(tops[0]!);
      }
    }
  });

  test("puts the server's catchall error on the address field", async ({ page }) => {
    await page.getByLabel("Rodzaj konta domyślnego").selectOption("1");
    await page.getByLabel("Adres konta domyślnego").fill(`nie-ma-takiego@${DEMO.domain}`);
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    const address = page.getByLabel("Adres konta domyślnego");
    await expect(address).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("alert").filter({ hasText: "Popraw zaznaczone pola" })).toBeVisible();
  });

  test("a catchall to an account with no address is refused in the form, before sending", async ({ page }) => {
    await page.getByLabel("Rodzaj konta domyślnego").selectOption("1");
    const address = page.getByLabel("Adres konta domyślnego");
    await address.fill("");
    let sent = false;
    page.on("request", (r) => {
      if (r.url().includes("/api/panel/v1/domains/") && r.method() === "PUT") sent = true;
    });
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    await expect(address).toHaveAttribute("aria-invalid", "true");
    await expect(address).toBeFocused();
    await expect(page.getByText("Podaj adres konta domyślnego.")).toBeVisible();
    await expect(page.getByText("Szczegóły dla pomocy technicznej")).toHaveCount(0);
    expect(sent).toBe(false);

    await page.getByRole("button", { name: /English/ }).click();
    await page.getByLabel("Kind of default account").selectOption("1");
    await page.getByLabel("Default account address").fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Enter the default account's address.")).toBeVisible();
    expect(sent).toBe(false);
  });

  test("checks every list entry before saving", async ({ page }) => {
    const white = page.getByLabel("Biała lista (zawsze przyjmuj)");
    await white.fill("partner.pl\nto nie jest adres");
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    await expect(white).toHaveAttribute("aria-invalid", "true");
    await expect(
      page.getByText("Lista antyspamowa może zawierać tylko poprawne adresy e-mail lub domeny."),
    ).toBeVisible();

    await white.fill("partner.pl\njan@partner.pl");
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Zapisano ustawienia domeny." })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Biała lista (zawsze przyjmuj)")).toHaveValue("partner.pl\njan@partner.pl");
  });

  test("shows the limits with their usage", async ({ page }) => {
    const accounts = page.getByRole("progressbar", { name: "Konta" });
    await expect(accounts).toBeVisible();
    await expect(accounts).toHaveAttribute("aria-valuetext", /^\d+ \/ \d+$/);
  });
});
