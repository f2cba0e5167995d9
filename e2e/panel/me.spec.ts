// "My account": the owner edits the autoresponder, forwarding, password and anti-spam lists; restricted fields are
// read-only on the page and refused by the service even when a crafted request goes through the BFF.
import path from "node:path";
import type { Page } from "@playwright/test";
import { SCREENSHOTS } from "./artifacts";
import { DEMO, expect, loginAs, originOf, sha1Hex, signInAs, test } from "./fixtures";

const section = (page: Page, title: string) => page.getByRole("region", { name: title });
const ownRecord = async (page: Page, name = "jan.nowak") =>
  (await (await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/${name}`)).json()) as Record<string, unknown>;

test("the owner sets the autoresponder", async ({ page }) => {
  await loginAs(page, "user");
  const ar = section(page, "Autoresponder");
  await ar.getByLabel("Autoresponder włączony").check();
  // The panel's date control: DD.MM.RRRR in Polish (the same control as in the administrator's account editor).
  await expect(ar.getByLabel("Data początkowa")).toHaveAttribute("placeholder", "DD.MM.RRRR");
  await ar.getByLabel("Data początkowa").fill("01.07.2030");
  await ar.getByLabel("Data końcowa").fill("14.07.2030");
  await ar.getByLabel("Treść odpowiedzi").fill("Jestem na urlopie do 14 lipca.");
  await ar.getByRole("button", { name: "Zapisz" }).click();
  await expect(ar.getByRole("status")).toHaveText("Zapisano zmiany.");

  expect(await ownRecord(page)).toMatchObject({
    autoresponder_mode: 1,
    autoresponder_start_date: "2030-07-01",
    autoresponder_end_date: "2030-07-14",
    autoresponder_body: "Jestem na urlopie do 14 lipca.",
  });
  await page.reload();
  await expect(section(page, "Autoresponder").getByLabel("Treść odpowiedzi")).toHaveValue(
    "Jestem na urlopie do 14 lipca.",
  );
});

test("the owner sets forwards up to the limit, with keep_mail", async ({ page }) => {
  await loginAs(page, "user");
  const fw = section(page, "Przekierowania");
  const list = fw.getByLabel("Adresy przekierowań");
  await expect(fw.getByText("Jeden adres w wierszu, najwyżej 3 przekierowania.")).toBeVisible();

  // Over the limit: refused on the page, with a message that says what to do.
  await list.fill("a@example.com\nb@example.com\nc@example.com\nd@example.com");
  await fw.getByRole("button", { name: "Zapisz" }).click();
  await expect(fw.getByText("Możesz ustawić najwyżej 3 przekierowania. Usuń nadmiarowe adresy.")).toBeVisible();
  await expect(list).toHaveAttribute("aria-invalid", "true");

  await list.fill("Jan.Private@Example.com\nbackup@example.org");
  await fw.getByLabel("Zachowuj wiadomości na tym koncie").uncheck();
  await fw.getByRole("button", { name: "Zapisz" }).click();
  await expect(fw.getByRole("status")).toHaveText("Zapisano zmiany.");
  await expect(list).not.toHaveAttribute("aria-invalid", "true");
  // The section shows what was stored, as a reload would (it kept "Jan.Private@Example.com" until one).
  await expect(list).toHaveValue("jan.private@example.com\nbackup@example.org");
  expect(await ownRecord(page)).toMatchObject({
    forwards: ["jan.private@example.com", "backup@example.org"],
    forward_email_1: "jan.private@example.com",
    keep_mail: 0,
  });

  await page.reload();
  await expect(section(page, "Przekierowania").getByLabel("Zachowuj wiadomości na tym koncie")).not.toBeChecked();
  await section(page, "Przekierowania").getByLabel("Zachowuj wiadomości na tym koncie").check();
  await section(page, "Przekierowania").getByRole("button", { name: "Zapisz" }).click();
  await expect(section(page, "Przekierowania").getByRole("status")).toHaveText("Zapisano zmiany.");
  expect((await ownRecord(page)).keep_mail).toBe(1);
});

test("forwards: the bad entries are quoted on the field, as in the postmaster's editor", async ({ page }) => {
  await loginAs(page, "user");
  const fw = section(page, "Przekierowania");
  const list = fw.getByLabel("Adresy przekierowań");
  await list.fill(`jan.nowak@${DEMO.domain}\nfoo`);
  await fw.getByRole("button", { name: "Zapisz" }).click();
  await expect(list).toHaveAttribute("aria-invalid", "true");
  await expect(list).toBeFocused();
  await expect(fw.getByText("Adres przekierowania jest nieprawidłowy. Błędne wpisy: „foo”.")).toBeVisible();
  // Then the server's own refusal (the account itself), quoted the same way.
  await list.fill(`jan.nowak@${DEMO.domain}`);
  await fw.getByRole("button", { name: "Zapisz" }).click();
  await expect(fw.getByText(`Błędne wpisy: „jan.nowak@${DEMO.domain}”.`)).toBeVisible();
  await expect(list).toHaveAttribute("aria-invalid", "true");
});

test("restricted fields are read-only on the page and refused through the BFF", async ({ page }) => {
  await loginAs(page, "user");
  const info = section(page, "Informacje o koncie");
  await expect(info.getByTestId("account-info")).toContainText("1024 MB");
  await expect(page.getByRole("textbox", { name: /Pojemność|Opis/ })).toHaveCount(0);

  const path = `/api/panel/v1/emails/${DEMO.domain}/jan.nowak`;
  const headers = { origin: originOf(page) };
  for (const body of [
    { capacity: 99999 },
    { description: "hacked" },
    { forward_limit: 50 },
    { blocked: 1 },
    { expiration_date: "2099-01-01" },
  ]) {
    const res = await page.request.put(path, { data: body, headers });
    expect(res.status(), JSON.stringify(body)).toBe(403);
    expect(await res.json()).toMatchObject({ code: "403.2", category: "authorization", source: Object.keys(body)[0] });
  }
  // Another account's record and the postmaster's endpoints are refused too.
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/anna.kowalska`)).status()).toBe(403);
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}`)).status()).toBe(403);
  expect(
    (await page.request.put(`/api/panel/v1/domains/${DEMO.domain}`, { data: { spam_enabled: 0 }, headers })).status(),
  ).toBe(403);

  expect(await ownRecord(page)).toMatchObject({
    capacity: 1024,
    description: "Jan Nowak, sprzedaż",
    forward_limit: 3,
    blocked: 0,
    expiration_date: "",
  });
});

test("password change shows the rules live and keeps the session", async ({ page, playwright, baseURL }) => {
  const email = `anna.kowalska@${DEMO.domain}`;
  await page.request.post("/api/panel/session", {
    data: { email, digest: sha1Hex(DEMO.user.password) },
    headers: { origin: new URL(baseURL!).origin },
  });
  await page.goto("/me");
  const pw = section(page, "Zmiana hasła");
  const rule = (name: string) => pw.locator(`[data-rule="${name}"]`);

  await pw.getByLabel("Nowe hasło", { exact: true }).fill("abc");
  await expect(rule("length")).toHaveAttribute("data-ok", "false");
  await expect(rule("letter")).toHaveAttribute("data-ok", "true");
  await expect(rule("digitOrSpecial")).toHaveAttribute("data-ok", "false");
  await pw.getByLabel("Nowe hasło", { exact: true }).fill("Nowe-haslo7");
  for (const r of ["length", "letter", "digitOrSpecial", "characters"])
    await expect(rule(r)).toHaveAttribute("data-ok", "true");

  await pw.getByLabel("Powtórz nowe hasło").fill("Nowe-haslo8");
  await pw.getByRole("button", { name: "Zapisz" }).click();
  await expect(pw.getByText("Hasła nie są takie same.")).toBeVisible();

  await pw.getByLabel("Powtórz nowe hasło").fill("Nowe-haslo7");
  await pw.getByLabel("Obecne hasło").fill(DEMO.user.password);
  await pw.getByRole("button", { name: "Zapisz" }).click();
  await expect(pw.getByRole("status")).toHaveText("Hasło zostało zmienione.");
  await expect(pw.getByLabel("Nowe hasło", { exact: true })).toHaveValue("");

  // The session now authenticates with the new digest; the old password no longer signs in, the new one does.
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/anna.kowalska`)).status()).toBe(200);
  const other = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { origin: new URL(baseURL!).origin },
  });
  expect(
    (await other.post("/api/panel/session", { data: { email, digest: sha1Hex(DEMO.user.password) } })).status(),
  ).toBe(403);
  expect((await other.post("/api/panel/session", { data: { email, digest: sha1Hex("Nowe-haslo7") } })).status()).toBe(
    200,
  );
  await other.dispose();
});

test("the anti-spam lists take one entry a line and reject bad entries on their field", async ({ page }) => {
  await loginAs(page, "user");
  const spam = section(page, "Listy antyspamowe");
  const white = spam.getByLabel("Biała lista (zawsze przyjmuj)");
  await white.fill("partner.example.com\nnot an address");
  await spam.getByRole("button", { name: "Zapisz" }).click();
  await expect(white).toHaveAttribute("aria-invalid", "true");
  await expect(spam.getByRole("alert")).toContainText("Popraw zaznaczone pola");

  await white.fill("partner.example.com\nszef@partner.example.com");
  await spam.getByLabel("Czarna lista (zawsze odrzucaj)").fill("spam.example.net");
  await spam.getByRole("button", { name: "Zapisz" }).click();
  await expect(spam.getByRole("status")).toHaveText("Zapisano zmiany.");
  expect(await ownRecord(page)).toMatchObject({
    spam_white_list: ["partner.example.com", "szef@partner.example.com"],
    spam_black_list: ["spam.example.net"],
  });
});

test("the owner sets the spam filter: on/off, rule, sensitivity and cleanup days", async ({ page }) => {
  await loginAs(page, "user");
  const filter = section(page, "Filtr antyspamowy");
  const days = filter.getByLabel("Usuwaj spam po (dniach)");
  await days.fill("dużo");
  await filter.getByRole("button", { name: "Zapisz" }).click();
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(filter.getByText("Podaj liczbę dni od 0 do 3650.")).toBeVisible();

  await filter.getByLabel("Filtr antyspamowy włączony").uncheck();
  await filter.getByLabel("Co robić ze spamem").selectOption("tag");
  await filter.getByLabel("Czułość filtra").selectOption("2");
  await days.fill("14");
  await filter.getByRole("button", { name: "Zapisz" }).click();
  await expect(filter.getByRole("status")).toHaveText("Zapisano zmiany.");
  expect(await ownRecord(page)).toMatchObject({
    spam_enabled: 0,
    spam_rule: "tag",
    spam_hits: 2,
    spam_delete_after: 14,
  });

  await page.reload();
  const again = section(page, "Filtr antyspamowy");
  await expect(again.getByLabel("Filtr antyspamowy włączony")).not.toBeChecked();
  await expect(again.getByLabel("Co robić ze spamem")).toHaveValue("tag");
  await expect(again.getByLabel("Czułość filtra")).toHaveValue("2");
  await again.getByLabel("Filtr antyspamowy włączony").check();
  await again.getByLabel("Co robić ze spamem").selectOption("move");
  await again.getByLabel("Czułość filtra").selectOption("5");
  await again.getByRole("button", { name: "Zapisz" }).click();
  await expect(again.getByRole("status")).toHaveText("Zapisano zmiany.");
  expect(await ownRecord(page)).toMatchObject({
    spam_enabled: 1,
    spam_rule: "move",
    spam_hits: 5,
    spam_delete_after: 14,
  });
});

test("the postmaster's own restricted fields point to his account's editor", async ({ page }) => {
  await signInAs(page, "postmaster");
  await page.goto("/me");
  const card = section(page, "Informacje o koncie");
  await expect(card).toContainText("Te ustawienia zmieniasz jako administrator domeny w edytorze konta:");
  await expect(card).not.toContainText("może zmienić tylko administrator domeny");
  await expect(card.getByRole("link", { name: "Konto postmaster" })).toHaveAttribute("href", "/accounts/postmaster");
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `me-postmaster-${width}.png`) });
  }
  await card.getByRole("link", { name: "Konto postmaster" }).click();
  await expect(page).toHaveURL(/\/accounts\/postmaster$/);
});
