// The editors: errors on their field (a duplicate name, the capacity over the domain's limit with the
// limit and the room left, the autoresponder's own rules), the unsaved-changes guard for in-app navigation and for
// reload, dates in the panel's language, and the owner's password change that needs the current password.
// Each test leaves a screenshot in test-results/screenshots-pg (the spec runs on PostgreSQL only: playwright.config.ts).
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, colourOf, expect, loginAs, signInAs, sha1Hex as sha1, test } from "./fixtures";
import { formatNumber } from "@/lib/i18n/number";
import { SCREENSHOTS } from "./artifacts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `editors-${name}.png`), fullPage: true });
const section = (page: Page, title: string) => page.getByRole("region", { name: title });

async function openAccount(page: Page, name: string) {
  await loginAs(page, "postmaster");
  await gotoAccount(page, name);
}

/** The account's editor, in the session the page already has. */
async function gotoAccount(page: Page, name: string) {
  await page.goto(`/accounts/${name}`);
  await expect(page.getByRole("heading", { level: 1, name: `Konto ${name}@${DEMO.domain}` })).toBeVisible();
  await expect(page.getByLabel("Opis", { exact: true })).not.toHaveValue("");
}

test("selects are as tall as text inputs and white; the pager's select and buttons line up", async ({ page }) => {
  await openAccount(page, "maria.wojcik");
  const heightOf = (selector: string) =>
    page.locator(selector).evaluateAll((els) => [...new Set(els.map((el) => el.getBoundingClientRect().height))]);
  const inputs = await heightOf("main input:not([type=checkbox]):visible");
  expect(inputs).toEqual([42]);
  expect(await heightOf("main select:visible")).toEqual(inputs);
  for (const select of await page.locator("main select:visible").all()) {
    expect(await colourOf(select, "backgroundColor")).toEqual([255, 255, 255]);
  }
  await page.goto("/accounts");
  const pager = page.getByRole("navigation", { name: "Stronicowanie" });
  const boxes = await pager
    .locator("select, button")
    .evaluateAll((els) => els.map((el) => [el.getBoundingClientRect().top, el.getBoundingClientRect().height]));
  expect(boxes).toHaveLength(3);
  expect(new Set(boxes.map(([top, height]) => `${top} ${height}`)).size, JSON.stringify(boxes)).toBe(1);
  await pager.screenshot({ path: path.join(SCREENSHOTS, "editors-pager.png") });
});

test("the unsaved-changes guard asks before an in-app link leaves the editor", async ({ page }) => {
  await openAccount(page, "maria.wojcik");
  const description = page.getByLabel("Opis", { exact: true });
  await description.fill("Zmieniony opis");
  await expect(page.getByText("Masz niezapisane zmiany.")).toBeVisible();

  // "Stay": the page and the typed text stay.
  const asked: string[] = [];
  page.once("dialog", (d) => {
    asked.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.getByRole("navigation").getByRole("link", { name: "Aliasy" }).click();
  await expect.poll(() => asked).toEqual(["confirm: Masz niezapisane zmiany. Opuścić stronę i je utracić?"]);
  await expect(page).toHaveURL(/\/accounts\/maria\.wojcik$/);
  await expect(description).toHaveValue("Zmieniony opis");
  await shot(page, "guard-link");

  // "Leave": the link is followed.
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("navigation").getByRole("link", { name: "Aliasy" }).click();
  await expect(page).toHaveURL(/\/aliases$/);

  // Nothing unsaved: no question. Not a new sign-in: that ends this session (a fresh id at every sign-in) while the
  // aliases page may still be loading its table, whose request then meets a 401 and sends the page to the login.
  await gotoAccount(page, "maria.wojcik");
  let questions = 0;
  page.on("dialog", (d) => {
    questions++;
    void d.dismiss();
  });
  await page.getByRole("navigation").getByRole("link", { name: "Aliasy" }).click();
  await expect(page).toHaveURL(/\/aliases$/);
  expect(questions).toBe(0);
});

test("the unsaved-changes guard asks before a reload, and not after saving", async ({ page }) => {
  await openAccount(page, "maria.wojcik");
  const description = page.getByLabel("Opis", { exact: true });
  await description.fill("Opis przed przeładowaniem");
  const dialog = page.waitForEvent("dialog");
  const reload = page.reload({ timeout: 5_000 }).catch(() => "stayed");
  const question = await dialog;
  expect(question.type()).toBe("beforeunload");
  await question.dismiss();
  await reload;
  await expect(description).toHaveValue("Opis przed przeładowaniem");
  await shot(page, "guard-reload");

  // Saved: a reload goes through at once.
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zapisano zmiany." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Opis", { exact: true })).toHaveValue("Opis przed przeładowaniem");
});

test("a duplicate name is marked on the name field, focused, without a raw code; sending again clears it", async ({
  page,
}) => {
  await loginAs(page, "postmaster");
  await page.getByRole("button", { name: "Nowe konto" }).click();
  const name = page.getByLabel("Nazwa", { exact: true });
  await name.fill("jan.nowak");
  await page.getByLabel("Hasło", { exact: true }).fill("Dobre-haslo1");
  await page.getByRole("button", { name: "Utwórz konto" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  const message = page.getByText("Ten adres jest już zajęty w domenie (konto, alias lub lista).");
  await expect(message).toBeVisible();
  await expect(page.getByText("409.1")).toHaveCount(0);
  await shot(page, "duplicate-name");

  await name.fill("jan.nowak2");
  await page.getByRole("button", { name: "Utwórz konto" }).click();
  await expect(message).toHaveCount(0);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
});

test("an empty create form focuses its first field, the name, on each create form", async ({ page }) => {
  await loginAs(page, "postmaster");
  await page.getByRole("button", { name: "Nowe konto" }).click();
  await page.getByRole("button", { name: "Utwórz konto" }).click();
  await expect(page.getByLabel("Nazwa", { exact: true })).toBeFocused();
  await page.goto("/aliases");
  await page.getByRole("button", { name: "Utwórz alias" }).click();
  await expect(page.getByLabel("Alias", { exact: true })).toBeFocused();
});

test("a duplicate alias name is marked on its field too", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/aliases");
  const name = page.getByLabel("Alias", { exact: true });
  await name.fill("biuro");
  await page.getByLabel("Cel", { exact: true }).fill(`faktury@${DEMO.domain}`);
  await page.getByRole("button", { name: "Utwórz alias" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  await expect(page.getByText("409.1")).not.toBeVisible();
  // A name that breaks the rules is called an alias name, not an account name.
  await name.fill("Nowy Alias");
  await page.getByRole("button", { name: "Utwórz alias" }).click();
  await expect(page.getByText(/^Nieprawidłowa nazwa aliasu: małe litery/)).toBeVisible();
  await expect(page.getByText("Nieprawidłowa nazwa konta.")).toHaveCount(0);
});

test("capacity over the domain's limit says the limit and the MB still free, on the capacity field", async ({
  page,
}) => {
  await openAccount(page, "maria.wojcik");
  const domain = (await (await page.request.get(`/api/panel/v1/domains/${DEMO.domain}`)).json()) as Record<
    string,
    string
  >;
  const limit = Number(domain.capacity_limit);
  const free = limit - Number(domain.capacity_limit_usage);
  const capacity = page.getByLabel("Pojemność (MB)", { exact: true });
  await capacity.fill("1048576");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(capacity).toHaveAttribute("aria-invalid", "true");
  await expect(capacity).toBeFocused();
  await expect(
    page.getByText(
      `Przekroczono limit pojemności domeny. Limit domeny: ${formatNumber(limit, "pl")} MB, wolne jeszcze: ${formatNumber(free, "pl")} MB.`,
    ),
  ).toBeVisible();
  await shot(page, "capacity-limit");
});

test("forwards: the bad entries are quoted on the field", async ({ page }) => {
  await openAccount(page, "maria.wojcik");
  const forwards = page.getByLabel("Przekierowania", { exact: true });
  // The browser's own check passes these; the server finds the account forwarding to itself.
  await forwards.fill(`ok@example.org\nmaria.wojcik@${DEMO.domain}`);
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(forwards).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(`Błędne wpisy: „maria.wojcik@${DEMO.domain}”.`)).toBeVisible();
});

test("dates are DD.MM.RRRR; an autoresponder on with no text is refused; a past expiration date is only warned about", async ({
  page,
}) => {
  await openAccount(page, "piotr.wisniewski");
  // The record's own dates too (they were shown as stored, YYYY-MM-DD).
  const created = (await page.request
    .get(`/api/panel/v1/emails/${DEMO.domain}/piotr.wisniewski`)
    .then((r) => r.json())) as { creation_date: string };
  const [y, m, d] = created.creation_date.split("-");
  await expect(
    page
      .getByRole("definition")
      .filter({ hasText: `${d}.${m}.${y}` })
      .first(),
  ).toBeVisible();
  const start = page.getByLabel("Data początkowa");
  await expect(start).toHaveAttribute("placeholder", "DD.MM.RRRR");
  await page.getByLabel("Autoresponder włączony").check();
  await start.fill("01.07.2030");
  await page.getByLabel("Data końcowa").fill("30.06.2030");
  await page.getByLabel("Treść odpowiedzi").fill("");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(page.getByLabel("Treść odpowiedzi")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Włączony autoresponder musi mieć treść odpowiedzi.")).toBeVisible();
  await expect(page.getByText("Data końcowa jest wcześniejsza niż data początkowa.")).toBeVisible();

  await page.getByLabel("Data końcowa").fill("14.07.2030");
  await page.getByLabel("Treść odpowiedzi").fill("Urlop do 14 lipca.");
  const expiration = page.getByLabel("Data wygaśnięcia");
  await expiration.fill("01.01.2020");
  await expect(page.getByText("Uwaga: ta data już minęła")).toBeVisible();
  await shot(page, "dates-autoresponder");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zapisano zmiany." })).toBeVisible();
  const record = (await (
    await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/piotr.wisniewski`)
  ).json()) as Record<string, unknown>;
  expect(record).toMatchObject({
    autoresponder_mode: 1,
    autoresponder_start_date: "2030-07-01",
    autoresponder_end_date: "2030-07-14",
    expiration_date: "2020-01-01",
  });
  await page.reload();
  await expect(page.getByLabel("Data początkowa")).toHaveValue("01.07.2030");
  // Back to no expiry, so that the account can be used by other tests.
  await page.getByLabel("Data wygaśnięcia").fill("");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zapisano zmiany." })).toBeVisible();
});

test("the owner's password change needs the current password, checked by the server", async ({ page, baseURL }) => {
  const email = `maria.wojcik@${DEMO.domain}`;
  const origin = new URL(baseURL!).origin;
  await page.request.post("/api/panel/session", {
    data: { email, digest: sha1(DEMO.user.password) },
    headers: { origin },
  });
  await page.goto("/me");
  const pw = section(page, "Zmiana hasła");
  const current = pw.getByLabel("Obecne hasło");
  await pw.getByLabel("Nowe hasło", { exact: true }).fill("Nowe-haslo9");
  await pw.getByLabel("Powtórz nowe hasło").fill("Nowe-haslo9");

  // Without it: refused in the page.
  await pw.getByRole("button", { name: "Zapisz" }).click();
  await expect(current).toHaveAttribute("aria-invalid", "true");

  // A wrong one: refused by the server, on the field.
  await current.fill("Zle-haslo1");
  await pw.getByRole("button", { name: "Zapisz" }).click();
  await expect(current).toHaveAttribute("aria-invalid", "true");
  await expect(pw.getByText("Obecne hasło jest nieprawidłowe.")).toBeVisible();
  await expect(current).toBeFocused();
  await shot(page, "password-current");

  // The generic record PUT cannot change the own password without it.
  const bypass = await page.request.put(`/api/panel/v1/emails/${DEMO.domain}/maria.wojcik`, {
    data: { password: "Obejscie-1", password_retype: "Obejscie-1" },
    headers: { origin },
  });
  expect(bypass.status()).toBe(403);

  await current.fill(DEMO.user.password);
  await pw.getByRole("button", { name: "Zapisz" }).click();
  await expect(pw.getByRole("status")).toHaveText("Hasło zostało zmienione.");
  await expect(current).toHaveValue("");
  // The session goes on with the new password; the new one signs in.
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/maria.wojcik`)).status()).toBe(200);
  const fresh = await page
    .context()
    .request.post("/api/panel/session", { data: { email, digest: sha1("Nowe-haslo9") }, headers: { origin } });
  expect(fresh.status()).toBe(200);
  // Later specs sign in as this account with the demo password: change it back the same way.
  const back = await page.request.put("/api/panel/password", {
    data: { current_password: "Nowe-haslo9", password: DEMO.user.password, password_retype: DEMO.user.password },
    headers: { origin },
  });
  expect(back.status(), await back.text()).toBe(200);
});

for (const width of [375, 1280]) {
  test(`after a failed save the focused field and its message stay above the sticky save bar (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await openAccount(page, "maria.wojcik");
    await page.getByLabel("Nowe hasło", { exact: true }).fill("Inne-haslo1");
    const retype = page.getByLabel("Powtórz nowe hasło");
    await retype.fill("Inne-haslo2");
    const save = page.getByRole("button", { name: "Zapisz zmiany" });
    await save.click();
    await expect(retype).toBeFocused();
    const message = page.getByText("Powtórzone hasło różni się od hasła.");
    await expect(message).toBeVisible();
    // The bar grows by the outcome's alert: measured once both are drawn.
    await expect(page.getByText("Popraw zaznaczone pola i zapisz ponownie.")).toBeVisible();
    const bar = save.locator("xpath=..");
    await expect
      .poll(async () => {
        const [f, m, b] = [(await retype.boundingBox())!, (await message.boundingBox())!, (await bar.boundingBox())!];
        return { fieldOnScreen: f.y >= 0, messageAboveBar: m.y + m.height <= b.y };
      })
      .toEqual({ fieldOnScreen: true, messageAboveBar: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `editors-save-bar-error-${width}.png`) });
  });
}

test("a failed save with several invalid fields focuses the first in page order", async ({ page }) => {
  await openAccount(page, "maria.wojcik");
  const expiration = page.getByLabel("Data wygaśnięcia");
  await expiration.fill("31.13.2026");
  await page.getByLabel("Ostrzeżenie o zajętości (%)").fill("150");
  await page.getByLabel("Limit aliasów").fill("-1");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(page.getByLabel("Ostrzeżenie o zajętości (%)")).toHaveAttribute("aria-invalid", "true");
  await expect(expiration).toHaveAttribute("aria-invalid", "true");
  await expect(expiration).toBeFocused();
});

test("a date in the right format that does not exist is called so, not a format error", async ({ page, baseURL }) => {
  await openAccount(page, "maria.wojcik");
  const expiration = page.getByLabel("Data wygaśnięcia");
  await expiration.fill("31.02.2026");
  await page.getByRole("button", { name: "Zapisz zmiany" }).click();
  await expect(expiration).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Nie ma takiego dnia: 31.02.2026. Sprawdź dzień i miesiąc.")).toBeVisible();
  await expect(page.getByText(/Wpisz datę jako/)).toHaveCount(0);
  await shot(page, "date-no-such-day");

  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);
  await page.goto("/accounts/maria.wojcik");
  await expect(page.getByLabel("Description", { exact: true })).not.toHaveValue("");
  const en = page.getByLabel("Expiration date");
  await en.fill("2026-02-31");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("There is no such day: 2026-02-31. Check the day and month.")).toBeVisible();
});
