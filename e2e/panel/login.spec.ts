// Signing in and out of the panel: Polish messages, the session cookie, logout, and expired or absent sessions.
import path from "node:path";
import type { Page, PlaywrightWorkerArgs } from "@playwright/test";
import { SCREENSHOTS } from "./artifacts";
import { DEMO, expect, loginAs, originOf, sha1Hex, test } from "./fixtures";

/** The login form's own alert (Next's route announcer is an empty role="alert" too). */
const formAlert = (page: Page) => page.locator("main [role=alert]");

/** API calls of their own (apart from the page's session), same-origin as the panel's mutating calls must be. */
const sameOriginRequests = (playwright: PlaywrightWorkerArgs["playwright"], baseURL: string) =>
  playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: new URL(baseURL).origin } });

/** sameOriginRequests signed in as the demo postmaster. */
async function postmasterRequests(playwright: PlaywrightWorkerArgs["playwright"], baseURL: string) {
  const admin = await sameOriginRequests(playwright, baseURL);
  const res = await admin.post("/api/panel/session", {
    data: { email: DEMO.postmaster.email, digest: sha1Hex(DEMO.postmaster.password) },
  });
  expect(res.status()).toBe(200);
  return admin;
}

/** The page at a phone's, a laptop's and a wide screen's width, for looking at after a run. */
async function shootWidths(page: Page, name: string) {
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`) });
  }
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Adres e-mail").fill(email);
  await page.getByLabel("Hasło").fill(password);
  await page.getByRole("button", { name: "Zaloguj" }).click();
}

test("a wrong password is refused with a Polish message; the digest is sent, with the password for imported accounts", async ({
  page,
}) => {
  const posted: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/panel/session") && r.method() === "POST") posted.push(r.postData() ?? "");
  });
  await fillLogin(page, DEMO.user.email, "Zle-haslo9");
  await expect(formAlert(page)).toContainText("Nieprawidłowy adres lub hasło");
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.locator("html").getAttribute("lang")).toBe("pl");
  expect(posted).toHaveLength(1);
  // The password as typed rides beside its digest: the server reads it only at an imported account's first sign-in
  // (docs/migration.md).
  expect(JSON.parse(posted[0]!)).toEqual({
    email: DEMO.user.email,
    digest: sha1Hex("Zle-haslo9"),
    password: "Zle-haslo9",
  });
});

test("the failed sign-in's alert goes once the address or the password is changed", async ({ page }) => {
  for (const field of ["Hasło", "Adres e-mail"]) {
    await fillLogin(page, DEMO.user.email, "Zle-haslo9");
    await expect(formAlert(page)).toContainText("Nieprawidłowy adres lub hasło");
    await page.getByLabel(field).press("End");
    await page.getByLabel(field).pressSequentially("x");
    await expect(formAlert(page)).toHaveCount(0);
  }
});

test("an ordinary account lands on /me; the session is an httpOnly SameSite=Strict cookie and the digest stays on the server", async ({
  page,
  context,
}) => {
  await fillLogin(page, DEMO.user.email, DEMO.user.password);
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Moje konto");
  await expect(page.getByRole("navigation", { name: "Nawigacja główna" }).getByRole("link")).toHaveText(["Moje konto"]);

  const cookie = (await context.cookies()).find((c) => c.name === "mailadmin_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", secure: false });
  expect(Buffer.from(cookie!.value, "base64url")).toHaveLength(32);

  const digest = sha1Hex(DEMO.user.password);
  const stored = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  expect(stored).not.toContain(digest);
  expect(await page.content()).not.toContain(digest);
  const session = await page.request.get("/api/panel/session");
  expect(await session.json()).toEqual({ email: DEMO.user.email, domain: DEMO.domain, isPostmaster: false });
});

test("the postmaster lands on /accounts with the six sections in the navigation", async ({ page }) => {
  await fillLogin(page, DEMO.postmaster.email, DEMO.postmaster.password);
  await expect(page).toHaveURL(/\/accounts$/);
  await expect(page.getByRole("navigation", { name: "Nawigacja główna" }).getByRole("link")).toHaveText([
    "Domena",
    "Konta",
    "Aliasy",
    "Listy",
    "Dziennik",
    "Moje konto",
  ]);
});

test("logout ends the session: the old cookie no longer works", async ({ page, playwright, baseURL }) => {
  await loginAs(page, "user");
  const old = (await page.context().cookies()).find((c) => c.name === "mailadmin_session")!.value;
  await page.getByRole("button", { name: "Wyloguj" }).click();
  await expect(page).toHaveURL(/\/login\?reason=logout$/);
  await expect(page.getByRole("status").filter({ hasText: "Wylogowano." })).toBeVisible();

  const stranger = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: `mailadmin_session=${old}` },
  });
  const session = await stranger.get("/api/panel/session");
  expect(session.status()).toBe(401);
  expect(session.headers()["www-authenticate"]).toBeUndefined();
  const data = await stranger.get(`/api/panel/v1/emails/${DEMO.domain}/jan.nowak`);
  expect(data.status()).toBe(401);
  expect((await data.json()) as unknown).toMatchObject({ code: "401.1", category: "authorization" });
  const pageAnswer = await stranger.get("/me", { maxRedirects: 0 });
  expect(pageAnswer.status()).toBe(307);
  expect(pageAnswer.headers().location).toContain("/login?reason=expired");
  await stranger.dispose();
});

test("without a session a panel page redirects to the login page; with a dead one it says the session expired", async ({
  page,
  context,
  baseURL,
}) => {
  await page.goto("/me");
  // The page asked for rides along, to return to it after the sign-in.
  await expect(page).toHaveURL(/\/login\?next=%2Fme$/);
  await expect(page.getByRole("heading", { name: "Logowanie do panelu poczty" })).toBeVisible();

  await context.addCookies([{ name: "mailadmin_session", value: "x".repeat(43), url: baseURL! }]);
  await page.goto("/me");
  await expect(page).toHaveURL(/\/login\?reason=expired&next=%2Fme$/);
  await expect(page.getByText("Sesja wygasła. Zaloguj się ponownie.")).toBeVisible();
});

test("a session that ends while a page is open sends the user to the login page with the notice", async ({ page }) => {
  await loginAs(page, "user");
  await expect(page.getByRole("heading", { name: "Autoresponder" })).toBeVisible();
  await page.request.delete("/api/panel/session", { headers: { origin: originOf(page) } });
  // The open page does not know yet; its next API call gets 401 and leads to the login page.
  await page.getByRole("button", { name: "Zapisz" }).first().click();
  await expect(page).toHaveURL(/\/login\?reason=expired$/);
  await expect(page.getByText("Sesja wygasła. Zaloguj się ponownie.")).toBeVisible();
});

test("a blocked account gets its own message", async ({ page, playwright, baseURL }) => {
  const admin = await postmasterRequests(playwright, baseURL!);
  const blocked = await admin.put(`/api/panel/v1/emails/${DEMO.domain}/maria.wojcik`, { data: { blocked: 1 } });
  expect(blocked.status()).toBe(200);
  try {
    await fillLogin(page, `maria.wojcik@${DEMO.domain}`, DEMO.user.password);
    await expect(formAlert(page)).toContainText("To konto jest zablokowane");
    await fillLogin(page, `maria.wojcik@${DEMO.domain}`, "Zle-haslo9");
    await expect(formAlert(page)).toContainText("Nieprawidłowy adres lub hasło");
  } finally {
    await admin.put(`/api/panel/v1/emails/${DEMO.domain}/maria.wojcik`, { data: { blocked: 0 } });
    await admin.dispose();
  }
});

test("repeated failures lock the login and say when to retry", async ({ page }) => {
  const email = `faktury@${DEMO.domain}`;
  await page.goto("/login");
  for (let i = 0; i < 6; i++) {
    await page.getByLabel("Adres e-mail").fill(email);
    await page.getByLabel("Hasło").fill(`Zle-haslo${i}`);
    await page.getByRole("button", { name: "Zaloguj" }).click();
    await expect(page.getByRole("button", { name: "Zaloguj" })).toBeEnabled();
  }
  await expect(formAlert(page)).toContainText(/Zbyt wiele nieudanych prób logowania\. Spróbuj ponownie za \d+ s\./);
});

test("mutating requests from another origin are refused", async ({ page, baseURL }) => {
  const login = await page.request.post("/api/panel/session", {
    data: { email: DEMO.user.email, digest: sha1Hex(DEMO.user.password) },
    headers: { origin: "https://evil.example" },
  });
  expect(login.status()).toBe(403);
  await loginAs(page, "user");
  const put = await page.request.put(`/api/panel/v1/emails/${DEMO.domain}/jan.nowak`, {
    data: { autoresponder_body: "x" },
    headers: { origin: "https://evil.example" },
  });
  expect(put.status()).toBe(403);
  const noOrigin = await page.request.fetch(`${baseURL}/api/panel/session`, { method: "DELETE" });
  expect(noOrigin.status()).toBe(403);
  expect((await page.request.get("/api/panel/session")).status()).toBe(200);
});

test("the language switch turns the panel English and back", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: /English/ }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the mail panel" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await page.getByLabel("Email address").fill(DEMO.user.email);
  await page.getByLabel("Password").fill("Zle-haslo9");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(formAlert(page)).toContainText("Wrong address or password");
  await page.getByRole("button", { name: /Polski/ }).click();
  await expect(page.getByRole("heading", { name: "Logowanie do panelu poczty" })).toBeVisible();
});

test("a failed sign-in's error follows the language switch, both ways", async ({ page }) => {
  await fillLogin(page, DEMO.user.email, "Zle-haslo9");
  await expect(formAlert(page)).toContainText("Nieprawidłowy adres lub hasło");
  // It stayed Polish: the text was kept as rendered, in the language of the moment it was refused.
  await page.getByRole("button", { name: /English/ }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the mail panel" })).toBeVisible();
  await expect(formAlert(page)).toContainText("Wrong address or password");
  await shootWidths(page, "login-error-switched-en");
  await page.getByRole("button", { name: /Polski/ }).click();
  await expect(formAlert(page)).toContainText("Nieprawidłowy adres lub hasło");
  await shootWidths(page, "login-error-switched-pl");
});

test("every page's tab title names the page, in the panel's language, after the switch too", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Logowanie · Panel poczty");
  await page.getByRole("button", { name: /English/ }).click();
  await expect(page).toHaveTitle("Sign in · Mail panel");
  await loginAs(page, "postmaster");
  const pages = [
    ["/accounts", "Konta pocztowe", "Mail accounts"],
    [`/accounts/jan.nowak`, `Konto jan.nowak@${DEMO.domain}`, `Account jan.nowak@${DEMO.domain}`],
    ["/aliases", "Aliasy", "Aliases"],
    ["/lists", "Listy dyskusyjne", "Mailing lists"],
    ["/lists/wszyscy", `Lista wszyscy@${DEMO.domain}`, `List wszyscy@${DEMO.domain}`],
    ["/domain", "Ustawienia domeny", "Domain settings"],
    ["/domain/dns", "Rekordy DNS domeny", "Domain DNS records"],
    ["/audit", "Dziennik zmian", "Audit log"],
    ["/me", "Moje konto", "My account"],
  ] as const;
  for (const [locale, app] of [
    ["pl", "Panel poczty"],
    ["en", "Mail panel"],
  ] as const) {
    await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
    for (const [url, pl, en] of pages) {
      await page.goto(url);
      await expect(page, `${url} (${locale})`).toHaveTitle(`${locale === "pl" ? pl : en} · ${app}`);
    }
  }
  // The switch on a panel page changes the title with the rest.
  await page.getByRole("button", { name: /Polski/ }).click();
  await expect(page).toHaveTitle("Moje konto · Panel poczty");
});

test("the client address rule of /api/v1 does not apply to panel users, and still applies to /api/v1", async ({
  page,
  playwright,
  baseURL,
}) => {
  // The test server allows no client address (ALLOWED_CLIENT_IPS in playwright.config.ts).
  const basic = Buffer.from(`${DEMO.user.email}:${sha1Hex(DEMO.user.password)}`).toString("base64");
  const direct = await playwright.request.newContext({ baseURL });
  const forgeries: Record<string, string>[] = [{}, { "x-mailadmin-panel-call": "0".repeat(64) }];
  for (const forged of forgeries) {
    const res = await direct.get(`/api/v1/emails/${DEMO.domain}/jan.nowak`, {
      headers: { authorization: `Basic ${basic}`, ...forged },
    });
    expect(res.status()).toBe(403);
    expect(await res.json()).toMatchObject({ code: "403.3" });
  }
  await direct.dispose();
  await loginAs(page, "user");
  expect((await page.request.get(`/api/panel/v1/emails/${DEMO.domain}/jan.nowak`)).status()).toBe(200);
});

test("a browser that signed in before signs in while someone else's guesses lock the account (device cookie)", async ({
  page,
  playwright,
  baseURL,
}) => {
  const admin = await postmasterRequests(playwright, baseURL!);
  const email = `device.owner@${DEMO.domain}`;
  expect(
    (
      await admin.post(`/api/panel/v1/emails/${DEMO.domain}/device.owner`, {
        data: { password: "Device-pass1", capacity: 1 },
      })
    ).status(),
  ).toBe(201);
  const attacker = await sameOriginRequests(playwright, baseURL!);
  try {
    // The owner signs in once: the browser keeps a signed device cookie, httpOnly.
    await fillLogin(page, email, "Device-pass1");
    await expect(page).toHaveURL(/\/me$/);
    const device = (await page.context().cookies()).find((c) => c.name === "mailadmin_device");
    expect(device).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    // Leave /me first: signed out under it, its queries send the page to /login on their own, racing our goto.
    await page.goto("about:blank");
    await page.request.delete("/api/panel/session", { headers: { origin: originOf(page) } });
    // Someone else guesses until the account locks.
    for (let i = 0; i < 6; i++)
      await attacker.post("/api/panel/session", { data: { email, digest: sha1Hex(`Guess-${i}`) } });
    const locked = await attacker.post("/api/panel/session", { data: { email, digest: sha1Hex("Device-pass1") } });
    expect(locked.status()).toBe(403);
    expect(await locked.text()).toContain("Zbyt wiele nieudanych prób");
    // The owner's browser still gets in.
    await fillLogin(page, email, "Device-pass1");
    await expect(page).toHaveURL(/\/me$/);
  } finally {
    // Leave /me before its account goes: the page would otherwise redirect itself while the context closes.
    await page.goto("about:blank");
    await admin.delete(`/api/panel/v1/emails/${DEMO.domain}/device.owner`);
    await Promise.all([admin.dispose(), attacker.dispose()]);
  }
});

test("the session-expired notice, once an attempt has replaced it, does not come back when a field is edited", async ({
  page,
}) => {
  const notice = page.getByText("Sesja wygasła. Zaloguj się ponownie.");
  await page.goto("/login?reason=expired");
  await expect(notice).toBeVisible();
  const email = page.getByLabel("Adres e-mail");
  const password = page.getByLabel("Hasło");
  // Typing before any attempt leaves the notice: it is why the user is here.
  await email.fill(`nikt@${DEMO.domain}`);
  await expect(notice).toBeVisible();

  // An attempt without a password: its error takes the notice's place; editing clears the error, and the notice
  // stays gone.
  await page.getByRole("button", { name: "Zaloguj" }).click();
  await expect(formAlert(page)).toHaveText("Podaj adres e-mail i hasło.");
  await expect(notice).toHaveCount(0);
  await password.fill("Zle-haslo1");
  await expect(formAlert(page)).toHaveCount(0);
  await expect(notice).toHaveCount(0);

  // A refused attempt: not while it is under way, nor after the address is edited.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/panel/session", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Zaloguj" }).click();
  await expect(page.getByRole("button", { name: "Logowanie…" })).toBeVisible();
  await expect(notice).toHaveCount(0);
  release();
  await expect(formAlert(page)).toHaveText("Nieprawidłowy adres lub hasło. Sprawdź je i spróbuj ponownie.");
  await email.fill(`ktos@${DEMO.domain}`);
  await expect(formAlert(page)).toHaveCount(0);
  await expect(notice).toHaveCount(0);
  for (const width of [375, 1280, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `login-after-edit-${width}.png`) });
  }
});

test("signed in, /login?next= with non-ASCII or a space sends the browser there, percent-encoded (a Location header takes neither)", async ({
  page,
}) => {
  await loginAs(page, "user");
  const cases: [string, string][] = [
    ["/%C4%85", "/%C4%85"],
    ["/me?x=a%20b", "/me?x=a%20b"],
  ];
  for (const [next, location] of cases) {
    const res = await page.request.get(`/login?next=${encodeURIComponent(decodeURIComponent(next))}`, {
      maxRedirects: 0,
    });
    expect(res.status(), next).toBe(307);
    expect(res.headers().location).toBe(location);
  }
});
