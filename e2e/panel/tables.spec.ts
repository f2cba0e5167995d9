// The postmaster's tables at scale: bulk create from a CSV, bulk work across pages on a domain of 1,500
// accounts, usage in MB after the CLI's `usage report`, and the three tables plus the owner page at 375 px. Every
// test saves a screenshot to test-results/screenshots.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, EXTRA_DOMAINS, SEEDED_ACCOUNTS, expect, loginAs, reportUsage, signInAs, signIn, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `tables-${name}.png`), fullPage: true });

test("bulk create of 200 accounts from a CSV with 3 bad rows: 197 created, 3 listed with their reasons", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const { domain, email, password } = EXTRA_DOMAINS.import;
  await signIn(page, email, password);
  await page.goto("/accounts");
  await expect(page.getByRole("link", { name: `Edytuj postmaster@${domain}` })).toBeVisible();

  // 200 rows: every other one without a password (generated), and three bad ones: a name against the rules, a
  // capacity that is no number, and the existing postmaster (all three caught in the preview, the last by asking
  // the server which names are taken).
  const lines = ["nazwa;hasło;pojemność;opis"];
  for (let i = 1; i <= 197; i++)
    lines.push(`imp${String(i).padStart(3, "0")};${i % 2 ? "Haslo-123" : ""};10;Import ${i}`);
  lines.splice(50, 0, "Zła Nazwa;Haslo-123;10;zła");
  lines.splice(120, 0, "imp-capacity;Haslo-123;dużo;zła pojemność");
  lines.push("postmaster;Haslo-123;10;już jest");
  expect(lines.length).toBe(201);

  await page.getByRole("button", { name: "Dodaj wiele kont" }).click();
  const dialog = page.getByRole("dialog", { name: "Dodaj wiele kont" });
  await dialog
    .getByLabel("…albo plik CSV")
    .setInputFiles({ name: "konta.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
  await expect(dialog.getByLabel("Wiersze")).toHaveValue(/imp197/);
  await dialog.getByRole("button", { name: "Sprawdź" }).click();
  await expect(dialog.getByText("Do utworzenia: 197 kont. Wiersze z błędem: 3")).toBeVisible();
  await expect(dialog.getByRole("row").filter({ hasText: "postmaster" })).toContainText("jest już zajęty");
  await expect(dialog.getByRole("row").filter({ hasText: "Nieprawidłowa nazwa konta." })).toHaveCount(1);
  await dialog.getByRole("button", { name: "Utwórz 197 kont" }).click();
  await expect(dialog.getByRole("progressbar", { name: "Tworzenie kont…" })).toBeVisible();

  await expect(dialog.getByText("Utworzono: 197 kont. Nie utworzono: 3 konta.")).toBeVisible({ timeout: 240_000 });
  const failed = dialog
    .getByRole("row")
    .filter({ hasNotText: "utworzono" })
    .filter({ has: page.getByRole("cell") });
  await expect(failed).toHaveCount(3);
  await expect(failed.nth(0)).toContainText("Nieprawidłowa nazwa konta.");
  await expect(failed.nth(1)).toContainText("Pojemność musi być liczbą całkowitą");
  await expect(failed.nth(2)).toContainText("postmaster");
  await expect(failed.nth(2)).toContainText("jest już zajęty");
  await shot(page, "bulk-create-result");

  // The generated passwords: downloadable once.
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: /Pobierz wygenerowane hasła/ }).click();
  const csv = fs
    .readFileSync(await (await download).path(), "utf8")
    .trim()
    .split(/\r?\n/);
  expect(csv[0]).toBe("address;password");
  expect(csv).toHaveLength(1 + 98);
  expect(csv[1]).toMatch(new RegExp(`^imp002@${domain.replace(/\./g, "\\.")};[A-Za-z2-9]{12}$`));
  await expect(dialog.getByRole("button", { name: /Pobierz wygenerowane hasła/ })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Zamknij" }).click();
  await expect(page.getByText(/198 pozycji/)).toBeVisible();
});

test("select all matching on a domain of 1,500 accounts, then block all 1,500", async ({ page }) => {
  test.setTimeout(180_000);
  const { domain, email, password } = EXTRA_DOMAINS.bulk;
  await signIn(page, email, password);
  await page.goto(`/accounts?search=${SEEDED_ACCOUNTS.prefix}`);
  await expect(page.getByText(/Strona 1 z 60 · 1500 pozycji/)).toBeVisible();

  // The selection survives paging.
  await page.getByLabel(`Zaznacz user0001@${domain}`).check();
  await page.getByRole("button", { name: "Następna" }).click();
  await page.getByLabel(`Zaznacz user0026@${domain}`).check();
  await expect(page.getByText("Zaznaczono: 2 konta")).toBeVisible();
  await page.getByRole("button", { name: "Poprzednia" }).click();
  await expect(page.getByLabel(`Zaznacz user0001@${domain}`)).toBeChecked();

  await page.getByRole("button", { name: "Zaznacz wszystkie pasujące (1500 kont)" }).click();
  await expect(page.getByText("Zaznaczono wszystkie pasujące: 1500 kont")).toBeVisible();
  await expect(page.getByText(/porcjami po najwyżej 1000 nazw/)).toBeVisible();
  // Deleting all matching says what goes with them, as a page's selection does (it said nothing before).
  await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm.getByText(/Razem z kontami znikną aliasy/)).toBeVisible();
  await confirm.getByRole("button", { name: "Anuluj" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Zablokuj", exact: true }).click();
  await page
    .getByRole("dialog", { name: "Zablokować zaznaczone konta?" })
    .getByRole("button", { name: "Zablokuj" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Zmieniono: 1500 kont." })).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole("row").filter({ hasText: "user0001" }).getByText("zablokowane")).toBeVisible();
  await shot(page, "select-all-blocked");

  // Every one of them is blocked, the last page too; the postmaster, outside the search, is not.
  const unblocked = await page.request.get(
    `/api/panel/v1/emails/${domain}?search=${SEEDED_ACCOUNTS.prefix}&sort=blocked&size=1`,
  );
  const first = Object.values(
    ((await unblocked.json()) as { result_data: Record<string, { blocked: string }> }).result_data,
  );
  expect(first.map((r) => r.blocked)).toEqual(["1"]);
  const postmaster = await page.request.get(`/api/panel/v1/emails/${domain}/postmaster`);
  expect(((await postmaster.json()) as { blocked: number }).blocked).toBe(0);
});

test("usage in MB after the CLI's usage report", async ({ page }) => {
  reportUsage(`anna.kowalska@${DEMO.domain}`, 300 * 1024 * 1024);
  await signInAs(page, "postmaster");
  await page.goto("/accounts?search=anna.kowalska");
  const row = page
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: `Edytuj anna.kowalska@${DEMO.domain}` }) });
  const capacity = (await row.getByRole("cell").nth(3).textContent())!.trim();
  await expect(row.getByRole("meter", { name: `Zajętość anna.kowalska@${DEMO.domain}` })).toHaveAttribute(
    "aria-valuetext",
    // One unit for both, joined to the last number by a no-break space.
    `300 z ${capacity}\u00a0MB`,
  );
  await expect(row).toContainText(`300 z ${capacity} MB`);
  await shot(page, "usage-mb");
});

test.describe("at 375 px", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  for (const [name, url, rowName] of [
    ["accounts", "/accounts", `anna.kowalska`],
    ["aliases", "/aliases", `kontakt@${DEMO.domain}`],
    ["lists", "/lists", `wszyscy@${DEMO.domain}`],
  ] as const) {
    test(`the ${name} table shows name, facts and actions without sideways scrolling`, async ({ page }) => {
      await signInAs(page, "postmaster");
      await page.goto(url);
      const row = page.getByRole("row").filter({ hasText: rowName }).first();
      await expect(row).toBeVisible();
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
      const fits = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        tables: [...document.querySelectorAll("table")].map((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0)),
      }));
      expect(fits.page).toBeLessThanOrEqual(0);
      for (const over of fits.tables) expect(over).toBeLessThanOrEqual(0);
      // The row's delete action is on screen.
      const del = row.getByRole("button", { name: /^Usuń/ });
      const box = (await del.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      // The nav shows every label whole.
      for (const label of ["Domena", "Konta", "Aliasy", "Listy", "Moje konto"]) {
        const link = page
          .getByRole("navigation", { name: "Nawigacja główna" })
          .getByRole("link", { name: label, exact: true });
        const b = (await link.boundingBox())!;
        expect(b.x + b.width, label).toBeLessThanOrEqual(375);
      }
      await shot(page, `${name}-375`);
    });
  }

  test("the owner page fits without sideways scrolling", async ({ page }) => {
    await loginAs(page, "user");
    await expect(page.getByRole("heading", { name: "Autoresponder" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await shot(page, "me-375");
  });
});

test("the delete dialog lists the aliases that go with the account and the catchall switched off", async ({ page }) => {
  await loginAs(page, "postmaster");
  const name = `usun${Date.now().toString(36)}`;
  const email = `${name}@${DEMO.domain}`;
  const headers = { origin: new URL(page.url()).origin };
  const bff = (method: "post" | "put", url: string, data: object) =>
    page.request[method](`/api/panel/v1/${url}`, { data, headers });
  expect((await bff("post", `emails/${DEMO.domain}/${name}`, { password: "Haslo-123", capacity: 10 })).status()).toBe(
    201,
  );
  for (const alias of [`${name}-a`, `${name}-b`]) {
    expect((await bff("post", `aliases/${DEMO.domain}/${alias}`, { target: email })).status()).toBe(201);
  }
  const before = (await (await page.request.get(`/api/panel/v1/domains/${DEMO.domain}`)).json()) as Record<
    string,
    unknown
  >;
  expect((await bff("put", `domains/${DEMO.domain}`, { catchall_type: 1, catchall_address: email })).status()).toBe(
    200,
  );

  await page.goto(`/accounts?search=${name}`);
  await page.getByRole("button", { name: `Usuń: ${email}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(
    "Razem z kontem znikną aliasy, które na nie wskazują, wprost lub przez inny alias (2 aliasy):",
  );
  await expect(dialog.getByRole("listitem")).toHaveText([`${name}-a@${DEMO.domain}`, `${name}-b@${DEMO.domain}`]);
  await expect(dialog).toContainText(`Catchall kierujący pocztę na ${email} zostanie wyłączony.`);
  await shot(page, "delete-dialog");
  await dialog.getByRole("button", { name: "Usuń" }).click();
  await expect(dialog).toBeHidden();
  const after = (await (await page.request.get(`/api/panel/v1/domains/${DEMO.domain}`)).json()) as Record<
    string,
    unknown
  >;
  expect(after.catchall_type).toBe(0);
  // Leave the demo domain's catchall as it was for the other tests.
  await bff("put", `domains/${DEMO.domain}`, {
    catchall_type: before.catchall_type,
    catchall_address: before.catchall_address,
  });
});
