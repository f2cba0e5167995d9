// Two-step sign-in (TOTP, RFC 6238) of the panel: set-up on /me with the QR code and ten recovery codes,
// then a sign-in with a code from the app, and one with a recovery code (used once only). /api/v1 Basic is not
// affected: the same account still authenticates there with its password alone (the API tests' domain).
import { createHmac } from "node:crypto";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, colourOf, expect, isRed, originOf, sha1Hex, signIn, signInAs, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `two-factor-${name}.png`), fullPage });

/** The app's side: RFC 6238 (SHA-1, 30 s, 6 digits) from the base32 key shown on the page. */
function totp(base32: string, now = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of base32.replace(/=+$/, "")) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac("sha1", key).update(msg).digest();
  const o = mac[19]! & 0xf;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Adres e-mail").fill(email);
  await page.getByLabel("Hasło").fill(password);
  await page.getByRole("button", { name: "Zaloguj" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Wyloguj" }).click();
  await expect(page).toHaveURL(/\/login/);
}

test("set-up on /me, sign-in with a code, then with a recovery code (once)", async ({ page, loginAs }) => {
  test.setTimeout(90_000);
  const name = `tfa${Date.now().toString(36)}`;
  const email = `${name}@${DEMO.domain}`;
  const password = "Haslo-123";
  await loginAs(page, "postmaster");
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password, capacity: 10 },
    headers: { origin: originOf(page) },
  });
  expect(res.status()).toBe(201);
  await signOut(page);

  // Set-up.
  await signInWithForm(page, email, password);
  await expect(page).toHaveURL(/\/me$/);
  const section = page.getByRole("region", { name: "Logowanie dwuetapowe" });
  await expect(section).toContainText("Wyłączone.");
  // Turning it on asks for the current password (a stolen session cannot); an empty one is said so at its field.
  await section.getByRole("button", { name: "Włącz logowanie dwuetapowe" }).click();
  await expect(section.getByLabel("Obecne hasło")).toHaveAccessibleDescription(/Wpisz obecne hasło\./);
  await expect(section.getByLabel("Obecne hasło")).toBeFocused();
  await section.getByLabel("Obecne hasło").fill(password);
  await section.getByRole("button", { name: "Włącz logowanie dwuetapowe" }).click();
  await expect(section.locator("svg path").first()).toBeVisible();
  // Shown in groups of four, as authenticator apps show keys.
  const shown = (await section.getByTestId("totp-secret").textContent())!.trim();
  expect(shown).toMatch(/^(?:[A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const secret = shown.replace(/ /g, "");
  await section.getByLabel("Kod z aplikacji").fill("000000" === totp(secret) ? "111111" : "000000");
  await section.getByRole("button", { name: "Potwierdź i włącz" }).click();
  // No recovery codes exist yet: the set-up's message does not offer them.
  await expect(section.getByText("Nieprawidłowy kod. Wpisz 6 cyfr, które aplikacja pokazuje teraz")).toBeVisible();
  await shot(page, "setup-qr");
  const setupCode = totp(secret);
  await section.getByLabel("Kod z aplikacji").fill(setupCode);
  await section.getByRole("button", { name: "Potwierdź i włącz" }).click();
  const codes = section.getByRole("list", { name: "Kody zapasowe" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  expect(new Set(recovery).size).toBe(10);
  await shot(page, "recovery-codes");
  await section.getByRole("button", { name: "Kody są zapisane" }).click();
  await expect(section).toContainText("Włączone.");
  await expect(section).toContainText("Niewykorzystane kody zapasowe: 10.");
  await signOut(page);

  // The password alone no longer gives a session.
  const direct = await page.request.post("/api/panel/session", {
    data: { email, digest: sha1Hex(password) },
    headers: { origin: originOf(page) },
  });
  expect(await direct.json()).toMatchObject({ second_step: "code" });
  expect((await page.request.get("/api/panel/session")).status()).toBe(401);

  // The second step names the account and has a way back to the first.
  await signInWithForm(page, email, password);
  await expect(page.getByText(`Konto: ${email}`)).toBeVisible();
  await page.getByRole("button", { name: "Zaloguj się od nowa" }).click();
  await expect(page.getByLabel("Adres e-mail")).toBeVisible();

  // Sign-in with a code; a wrong one first, then the set-up's code again (never accepted twice).
  await signInWithForm(page, email, password);
  const code = page.getByLabel("Kod logowania dwuetapowego");
  await expect(code).toBeVisible();
  await code.fill("12345x");
  await page.getByRole("button", { name: "Potwierdź" }).click();
  await expect(page.getByText(/Nieprawidłowy kod/)).toBeVisible();
  await shot(page, "login-code");
  await code.fill(setupCode);
  await page.getByRole("button", { name: "Potwierdź" }).click();
  await expect(page.getByText("Ten kod został już użyty")).toBeVisible();
  // The app's next code: the server accepts one step of clock drift, so no real 30 s wait is needed.
  await code.fill(totp(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Potwierdź" }).click();
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(email);
  await signOut(page);

  // Sign-in with a recovery code: works once.
  await signInWithForm(page, email, password);
  await page.getByLabel("Kod logowania dwuetapowego").fill(recovery[3]!);
  await page.getByRole("button", { name: "Potwierdź" }).click();
  await expect(page).toHaveURL(/\/me$/);
  await expect(page.getByRole("region", { name: "Logowanie dwuetapowe" })).toContainText(
    "Niewykorzystane kody zapasowe: 9.",
  );
  // Turning it off with no code says that the code is missing, not that it is wrong; in English too.
  const tfa = page.getByRole("region", { name: "Logowanie dwuetapowe" });
  await tfa.getByLabel("Obecne hasło").fill(password);
  await tfa.getByRole("button", { name: "Wyłącz logowanie dwuetapowe" }).click();
  await expect(tfa.getByText("Wpisz kod z aplikacji (albo kod zapasowy).")).toBeVisible();
  await expect(tfa.getByLabel("Kod z aplikacji")).toBeFocused();
  await expect(tfa.getByText(/Nieprawidłowy kod/)).toHaveCount(0);
  await page.getByRole("button", { name: /English/ }).click();
  const tfaEn = page.getByRole("region", { name: "Two-step sign-in" });
  await tfaEn.getByRole("button", { name: "Turn off two-step sign-in" }).click();
  await expect(tfaEn.getByText("Enter the code from the app (or a recovery code).")).toBeVisible();
  await page.getByRole("button", { name: /Polski/ }).click();
  await expect(tfa).toContainText("Włączone.");
  await signOut(page);
  await signInWithForm(page, email, password);
  await page.getByLabel("Kod logowania dwuetapowego").fill(recovery[3]!);
  await page.getByRole("button", { name: "Potwierdź" }).click();
  await expect(page.getByText(/Nieprawidłowy kod/)).toBeVisible();
});

test("turning it on with the password left empty says so at the field, in Polish and in English", async ({ page }) => {
  const name = `tfe${Date.now().toString(36)}`;
  const email = `${name}@${DEMO.domain}`;
  await signInAs(page, "postmaster");
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password: "Haslo-123", capacity: 10 },
    headers: { origin: originOf(page) },
  });
  expect(res.status()).toBe(201);
  await signIn(page, email, "Haslo-123");
  await page.goto("/me");
  for (const [locale, words] of [
    [
      "pl",
      {
        title: "Logowanie dwuetapowe",
        start: "Włącz logowanie dwuetapowe",
        field: "Obecne hasło",
        error: "Wpisz obecne hasło.",
      },
    ],
    [
      "en",
      {
        title: "Two-step sign-in",
        start: "Turn on two-step sign-in",
        field: "Current password",
        error: "Enter the current password.",
      },
    ],
  ] as const) {
    if (locale === "en") await page.getByRole("button", { name: /English/ }).click();
    const section = page.getByRole("region", { name: words.title });
    await section.getByRole("button", { name: words.start }).click();
    const field = section.getByLabel(words.field);
    await expect(field).toHaveAccessibleDescription(new RegExp(words.error.replace(/\./g, "\\.")));
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toBeFocused();
    // Marked in red (shared by every field: components/field-parts.tsx), its focus ring too once the keyboard
    // moves to it.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Shift+Tab");
    await expect(field).toBeFocused();
    expect(isRed(await colourOf(field, "borderTopColor"))).toBe(true);
    expect(isRed(await colourOf(field, "outlineColor"))).toBe(true);
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      // As wide as its form, as the section's other fields and the page's other forms' fields are (it was 320 px).
      const [fieldBox, formBox] = await Promise.all([
        field.boundingBox(),
        field.locator("xpath=ancestor::form[1]").boundingBox(),
      ]);
      expect(Math.abs(fieldBox!.width - formBox!.width), `${width} px`).toBeLessThan(1);
      // The section mid-window, with the field, its error and the button in view.
      await field.evaluate((el) => el.scrollIntoView({ block: "center" }));
      await shot(page, `empty-password-${locale}-${width}`, false);
    }
  }
});
