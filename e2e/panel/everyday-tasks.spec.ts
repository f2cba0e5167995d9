// The postmaster's and the owner's everyday tasks as a user meets them, each with a screenshot
// (test-results/screenshots/tasks-*).
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, reportUsage, signIn, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `tasks-${name}.png`), fullPage: true });
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e3)}`;
const rowOf = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByRole("link", { name: `Edytuj ${name}@` }) });

/** Creates accounts through the BFF as the signed-in postmaster (no form: many of them). */
async function createAccounts(page: Page, names: string[], description = "") {
  for (const name of names) {
    const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
      data: { password: "Haslo-123", capacity: 10, description },
      headers: { origin: originOf(page) },
    });
    expect(res.status(), await res.text()).toBe(201);
  }
}

async function openAccounts(page: Page, query = "") {
  await page.goto(`/accounts${query}`);
  await expect(page.getByRole("heading", { level: 1, name: "Konta pocztowe" })).toBeVisible();
}

/** Windows-1250 bytes of a text of ASCII and Polish letters (what Polish Excel saves as "CSV"). */
function windows1250(text: string): Buffer {
  const map: Record<string, number> = {
    ą: 0xb9,
    ć: 0xe6,
    ę: 0xea,
    ł: 0xb3,
    ń: 0xf1,
    ó: 0xf3,
    ś: 0x9c,
    ź: 0x9f,
    ż: 0xbf,
    Ł: 0xa3,
    Ś: 0x8c,
    Ż: 0xaf,
  };
  return Buffer.from([...text].map((c) => map[c] ?? c.charCodeAt(0)));
}

test.describe("postmaster", () => {
  test.beforeEach(async ({ page, loginAs }) => {
    await loginAs(page, "postmaster");
  });

  test("bulk create: closing with generated passwords not downloaded asks first, the download is the main action", async ({
    page,
  }) => {
    const a = unique("gen");
    await openAccounts(page);
    await page.getByRole("button", { name: "Dodaj wiele kont" }).click();
    const dialog = page.getByRole("dialog", { name: "Dodaj wiele kont" });
    await dialog.getByLabel("Wiersze").fill(`${a}1\n${a}2;Haslo-123`);
    await dialog.getByRole("button", { name: "Sprawdź" }).click();
    await dialog.getByRole("button", { name: "Utwórz 2 konta" }).click();
    await expect(dialog.getByText("Utworzono: 2 konta. Nie utworzono: 0 kont.")).toBeVisible({ timeout: 30_000 });
    const downloadButton = dialog.getByRole("button", { name: "Pobierz wygenerowane hasła (CSV, 1)" });
    // The download is the primary (filled) button; Close is not.
    await expect(downloadButton).toHaveClass(/bg-blue-700/);
    await expect(dialog.getByRole("button", { name: "Zamknij", exact: true })).not.toHaveClass(/bg-blue-700/);
    await dialog.getByRole("button", { name: "Zamknij", exact: true }).click();
    const warning = dialog.getByRole("alertdialog");
    await expect(warning).toContainText("Wygenerowane hasła (1) nie zostały pobrane");
    await expect(dialog).toBeVisible();
    await shot(page, "bulk-close-guard");
    const download = page.waitForEvent("download");
    await warning.getByRole("button", { name: /Pobierz wygenerowane hasła/ }).click();
    const csv = fs.readFileSync(await (await download).path(), "utf8");
    expect(csv).toContain(`${a}1@${DEMO.domain};`);
    await dialog.getByRole("button", { name: "Zamknij", exact: true }).click();
    await expect(dialog).toBeHidden();
  });

  test("bulk create: the preview marks a taken name, and a Windows-1250 file is decoded with a word about it", async ({
    page,
  }) => {
    const fresh = unique("gor");
    await openAccounts(page);
    await page.getByRole("button", { name: "Dodaj wiele kont" }).click();
    const dialog = page.getByRole("dialog", { name: "Dodaj wiele kont" });
    const csv = windows1250(
      `nazwa;hasło;pojemność;opis\nanna.kowalska;;10;Już jest\n${fresh};;10;Żaneta Górecka, księgowość\n`,
    );
    await dialog.getByLabel("…albo plik CSV").setInputFiles({ name: "excel.csv", mimeType: "text/csv", buffer: csv });
    await expect(dialog.getByLabel("Wiersze")).toHaveValue(/Górecka/);
    await dialog.getByRole("button", { name: "Sprawdź" }).click();
    await expect(dialog.getByText(/odczytano go jako Windows-1250/)).toBeVisible();
    await expect(dialog.getByRole("columnheader", { name: "Opis" })).toBeVisible();
    const taken = dialog.getByRole("row").filter({ hasText: "anna.kowalska" });
    await expect(taken).toContainText("Ten adres jest już zajęty");
    await expect(dialog.getByRole("row").filter({ hasText: fresh })).toContainText("Żaneta Górecka, księgowość");
    await expect(dialog.getByText("Do utworzenia: 1 konto. Wiersze z błędem: 1")).toBeVisible();
    await shot(page, "bulk-preview-taken-windows1250");
  });

  for (const width of [1280, 1920]) {
    test(`the description column shows its text at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await openAccounts(page, "?search=ksi%C4%99gowo%C5%9B%C4%87");
      const row = rowOf(page, "anna.kowalska");
      const cell = row.getByRole("cell").filter({ hasText: "Anna Kowalska, księgowość" }).last();
      await expect(cell).toBeVisible();
      const box = (await cell.boundingBox())!;
      expect(box.width).toBeGreaterThan(120);
      // The whole text is drawn inside the cell (not clipped to nothing).
      const fits = await cell.evaluate((td) => {
        const p = td.querySelector("p")!;
        // Not cut short either: a clamped line would make the paragraph's content taller than its box.
        return (
          p.scrollWidth <= td.clientWidth &&
          p.getBoundingClientRect().width > 60 &&
          p.scrollHeight <= p.clientHeight + 1
        );
      });
      expect(fits).toBe(true);
      await shot(page, `description-${width}`);
    });
  }

  for (const width of [1280, 1920]) {
    test(`an expiry date and the usage figures stay on one line in the English table at ${width} px`, async ({
      page,
    }) => {
      // The expiry column was narrower than the other two dates: "2031-03-15" broke after its hyphens in English;
      // and "7,999 MB of 8,000 MB" took two lines of the usage column (below biuro's 8,192 MB: the sorts stay as they are).
      const name = unique("expires");
      const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
        data: { password: "Haslo-123", capacity: 8000, expiration_date: "2031-03-15" },
        headers: { origin: originOf(page) },
      });
      expect(res.status(), await res.text()).toBe(201);
      reportUsage(`${name}@${DEMO.domain}`, 7_999 * 1024 * 1024);
      await page.context().addCookies([{ name: "locale", value: "en", url: originOf(page) }]);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/accounts?search=${name}`);
      const cell = page.getByRole("cell", { name: "2031-03-15", exact: true });
      await expect(cell).toBeVisible();
      const usage = page.getByText("7,999 of 8,000\u00a0MB", { exact: true }).filter({ visible: true });
      await expect(usage).toBeVisible();
      for (const text of [cell, usage]) {
        const lines = await text.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        });
        expect(lines).toBe(1);
      }
      await shot(page, `expiry-date-en-${width}`);
      await page.request.delete(`/api/panel/v1/emails/${DEMO.domain}/${name}`, { headers: { origin: originOf(page) } });
    });
  }

  test("deleting the whole last page shows the page before it, and says 'Usunięto'; a stale page URL too", async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const prefix = unique("lp");
    await createAccounts(
      page,
      Array.from({ length: 26 }, (_, i) => `${prefix}-${String(i).padStart(2, "0")}`),
    );
    await openAccounts(page, `?search=${prefix}&page=2`);
    await expect(page.getByText("Strona 2 z 2 · 26 pozycji")).toBeVisible();
    await page.getByLabel("Zaznacz wszystkie wiersze na tej stronie").check();
    await page.getByRole("button", { name: "Usuń zaznaczone" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Usuń" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Usunięto: 1 konto." })).toBeVisible();
    await expect(page.getByText("Strona 1 z 1 · 25 pozycji")).toBeVisible();
    await expect(rowOf(page, `${prefix}-00`)).toHaveCount(1);
    await expect(page.getByText(/Żadne konto nie pasuje/)).toHaveCount(0);
    await shot(page, "deleted-last-page");
    await openAccounts(page, `?search=${prefix}&page=7`);
    await expect(page.getByText("Strona 1 z 1 · 25 pozycji")).toBeVisible();
    await expect(rowOf(page, `${prefix}-24`)).toHaveCount(1);
  });

  test("the sticky save bar is opaque and never covers the focused field", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto("/accounts/anna.kowalska");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("anna.kowalska");
    const bar = page.getByRole("button", { name: "Zapisz" }).locator("xpath=..");
    const background = await bar.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe("rgb(255, 255, 255)");
    for (const label of ["Konto zablokowane", "Limit przekierowań"]) {
      await page.evaluate(() => window.scrollTo(0, 0));
      const field = page.getByLabel(label, { exact: true });
      await field.focus();
      const [f, b] = [(await field.boundingBox())!, (await bar.boundingBox())!];
      expect(f.y + f.height, `${label} ends above the save bar`).toBeLessThanOrEqual(b.y);
      expect(f.y).toBeGreaterThanOrEqual(0);
    }
    await shot(page, "save-bar-focus");
  });

  test("search by the full address finds the account; pager says one item in Polish", async ({ page }) => {
    await openAccounts(page, `?search=${encodeURIComponent(`anna.kowalska@${DEMO.domain}`)}`);
    await expect(rowOf(page, "anna.kowalska")).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "Stronicowanie" })).toContainText("Strona 1 z 1 · 1 pozycja");
    // Dates as the fields ask for them: DD.MM.RRRR.
    await expect(rowOf(page, "anna.kowalska")).toContainText(/\d{2}\.\d{2}\.\d{4}/);
    await shot(page, "full-address-search");
  });

  test("an alias to a missing local mailbox is refused naming it; the form empties after a success; old banners go", async ({
    page,
  }) => {
    await page.goto("/aliases");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Utwórz alias" }) });
    const name = unique("al");
    await form.getByLabel("Alias", { exact: true }).fill(name);
    await form.getByLabel("Cel", { exact: true }).fill(`jan.nowak@${DEMO.domain}`);
    await form.getByRole("button", { name: "Utwórz alias" }).click();
    await expect(page.getByRole("status").filter({ hasText: `${name}@${DEMO.domain}` })).toBeVisible();
    await expect(form.getByLabel("Alias", { exact: true })).toHaveValue("");
    await expect(form.getByLabel("Cel", { exact: true })).toHaveValue("");

    await form.getByLabel("Alias", { exact: true }).fill(`${name}x`);
    await form.getByLabel("Cel", { exact: true }).fill(`nikt.taki@${DEMO.domain}`);
    await form.getByRole("button", { name: "Utwórz alias" }).click();
    await expect(
      page.getByText(`Adres docelowy aliasu nie istnieje na tym serwerze. Podany adres: „nikt.taki@${DEMO.domain}”.`),
    ).toBeVisible();
    // The earlier "created" banner does not stand beside the new error.
    await expect(page.getByRole("status").filter({ hasText: `${name}@${DEMO.domain}` })).toHaveCount(0);
    await shot(page, "alias-target-missing");

    await form.getByLabel("Cel", { exact: true }).fill("nikt.taki");
    await form.getByRole("button", { name: "Utwórz alias" }).click();
    await expect(form.getByText(/podaj pełny adres \(nazwa@domena\)/)).toBeVisible();
  });

  test("errors name the entry and the reason: domain spam list, list template, reply-to", async ({ page }) => {
    // Three pages and three saves: more than the default 30 s on a busy shared host.
    test.setTimeout(60_000);
    await page.goto("/domain");
    const white = page.getByLabel("Biała lista (zawsze przyjmuj)");
    await white.fill("dobry.example.com\nzły wpis\n");
    await page.getByRole("button", { name: "Zapisz ustawienia" }).click();
    await expect(page.getByText(/Błędne wpisy: „zły wpis”/).first()).toBeVisible();
    await shot(page, "error-domain-spam-line");

    await page.goto("/lists/ogloszenia");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("ogloszenia");
    const body = page.getByRole("textbox", { name: /^Treść:/ }).first();
    const original = await body.inputValue();
    await body.fill("Bez linku");
    await page.getByRole("button", { name: "Zapisz listę" }).click();
    await expect(page.getByText(/Brakuje znacznika „\{\{confirm_link\}\}”/).first()).toBeVisible();
    await shot(page, "error-list-template");

    await body.fill(original);
    await page.getByLabel("Odpowiedzi trafiają do").selectOption("2");
    await page.getByLabel("Adres dla odpowiedzi", { exact: true }).fill("");
    await page.getByRole("button", { name: "Zapisz listę" }).click();
    await expect(page.getByText(/Adres odpowiedzi jest wymagany/).first()).toBeVisible();
    await shot(page, "error-list-replyto");
  });

  test("the list editor shows every error of one save at once, the empty reply-to address among them", async ({
    page,
  }) => {
    let sent = 0;
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().includes("/api/panel/v1/mailinglists/")) sent++;
    });
    await page.goto("/lists/ogloszenia");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("ogloszenia");
    await page
      .getByRole("textbox", { name: /^Treść:/ })
      .first()
      .fill("Bez linku");
    await page.getByLabel("Adres strony potwierdzenia").fill("ftp://zly.example.com");
    await page.getByLabel("Odpowiedzi trafiają do").selectOption("2");
    await page.getByLabel("Adres dla odpowiedzi", { exact: true }).fill("");
    await page.getByRole("button", { name: "Zapisz listę" }).click();
    // One save: each field says its own reason...
    const field = (label: string | RegExp) => page.getByRole("textbox", { name: label }).first();
    await expect(
      page.getByText(/Adres odpowiedzi jest wymagany, gdy odpowiedzi mają trafiać na wskazany adres/),
    ).toBeVisible();
    await expect(page.getByText(/Brakuje znacznika „\{\{confirm_link\}\}”/).first()).toBeVisible();
    // The confirmation page's address says what is wrong with it, quoting it (not just "Nieprawidłowe ustawienie listy.").
    await expect(
      page.getByText(
        "Adres strony potwierdzenia musi zaczynać się od http:// lub https:// (podano: „ftp://zly.example.com”)",
        { exact: false },
      ),
    ).toBeVisible();
    for (const f of [
      field("Adres dla odpowiedzi"),
      field(/^Treść: Prośba o potwierdzenie zapisu/),
      field("Adres strony potwierdzenia"),
    ]) {
      await expect(f).toHaveAttribute("aria-invalid", "true");
    }
    // ...and the save's outcome names all three fields.
    const outcome = page.getByRole("alert").filter({ hasText: "Do poprawienia (3)" });
    await expect(outcome).toContainText("„Adres dla odpowiedzi”");
    await expect(outcome).toContainText("„Adres strony potwierdzenia”");
    await expect(outcome).toContainText("„Treść: Prośba o potwierdzenie zapisu”");
    // Nothing was sent: the API would have answered only the first of them.
    expect(sent).toBe(0);
    await shot(page, "error-list-all-at-once");
    await page.setViewportSize({ width: 375, height: 800 });
    await shot(page, "error-list-all-at-once-375");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, "error-list-all-at-once-1920");
  });

  test("on a phone the table sorts by any column", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await openAccounts(page);
    await page.getByLabel("Sortuj według").selectOption({ label: "Pojemność (MB), malejąco" });
    await expect(page).toHaveURL(/sort=capacity/);
    await expect(page).toHaveURL(/dir=desc/);
    await expect(page.getByRole("row").nth(1)).toContainText("biuro");
    await shot(page, "phone-sort");
  });

  // A CI run sorted right after the page loaded: the URL said sort=capacity, the rows stayed sorted by name for 7 s.
  // Next.js mirrors a history write into useSearchParams only once its own history patch is installed; here the
  // write goes past it (the browser's own pushState), as it would before that patch, and the rows must follow.
  test("the table follows a sort that Next.js's router does not see", async ({ page }) => {
    await openAccounts(page);
    await page.evaluate(() => {
      Reflect.deleteProperty(window.history, "pushState");
      Reflect.deleteProperty(window.history, "replaceState");
    });
    await page.getByRole("columnheader", { name: "Pojemność (MB)" }).getByRole("button").click();
    await page.getByRole("columnheader", { name: "Pojemność (MB)" }).getByRole("button").click();
    await expect(page).toHaveURL(/sort=capacity/);
    await expect(page).toHaveURL(/dir=desc/);
    await expect(page.getByRole("row").nth(1)).toContainText("biuro");
  });
});

test("sign-in returns to the page asked for", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/aliases?search=kontakt");
  await expect(page).toHaveURL(/\/login\?next=%2Faliases%3Fsearch%3Dkontakt/);
  await page.getByLabel("Adres e-mail").fill(DEMO.postmaster.email);
  await page.getByLabel("Hasło").fill(DEMO.postmaster.password);
  await page.getByRole("button", { name: "Zaloguj" }).click();
  await expect(page).toHaveURL(/\/aliases\?search=kontakt$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shot(page, "login-next");
  await context.close();
});

test.describe("owner", () => {
  test("an owner sent away from an administrator page is told why", async ({ page }) => {
    await signIn(page, DEMO.user.email, DEMO.user.password);
    await page.goto("/accounts");
    await expect(page).toHaveURL(/\/me\?denied=1$/);
    await expect(page.getByRole("status").filter({ hasText: "tylko dla administratora domeny" })).toBeVisible();
    await shot(page, "owner-denied");
  });

  test("the owner sees MB used and creates and removes an alias within alias_limit", async ({ page }) => {
    await signIn(page, DEMO.user.email, DEMO.user.password);
    await page.goto("/me");
    await expect(page.getByText("310 MB z 1024 MB (30%)")).toBeVisible();
    const section = page.getByRole("region", { name: "Moje aliasy" });
    const name = unique("jn");
    await section.getByLabel("Nowy alias").fill(name);
    await section.getByRole("button", { name: "Dodaj alias" }).click();
    await expect(section.getByText(`Dodano alias ${name}@${DEMO.domain}.`)).toBeVisible();
    await expect(section.getByRole("listitem").filter({ hasText: `${name}@${DEMO.domain}` })).toHaveCount(1);
    await expect(section.getByLabel("Nowy alias")).toHaveValue("");
    await shot(page, "owner-alias");
    // The alias delivers: the API shows it pointing at the owner.
    const res = await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/jan.nowak`);
    expect(((await res.json()) as { aliases: string[] }).aliases).toContain(`${name}@${DEMO.domain}`);
    await section.getByRole("button", { name: `Usuń: ${name}@${DEMO.domain}` }).click();
    await page.getByRole("dialog", { name: "Usunąć alias?" }).getByRole("button", { name: "Usuń alias" }).click();
    await expect(section.getByText(`Usunięto alias ${name}@${DEMO.domain}.`)).toBeVisible();
  });

  test("the owner's spam list error quotes the bad line", async ({ page }) => {
    await signIn(page, DEMO.user.email, DEMO.user.password);
    await page.goto("/me");
    const list = page.getByLabel(/biała lista/i).first();
    await list.fill("ok.example.com\nnie adres\n");
    await list.locator("xpath=ancestor::form").getByRole("button", { name: "Zapisz" }).click();
    await expect(page.getByText(/Błędne wpisy: „nie adres”/)).toBeVisible();
    await shot(page, "owner-spam-error");
  });
});
