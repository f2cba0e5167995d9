// Small edges of My account and the alias table: the password rules say nothing before anything is typed, the
// current password given again as the new one is refused on its field (in Polish and English), and "Zmień cel"
// opens its form in the Cel column. Screenshots at each of WIDTHS (artifacts.ts).
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, signIn, test } from "./fixtures";
import { SCREENSHOTS, WIDTHS } from "./artifacts";

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `account-edges-${name}.png`), fullPage: true });
const PASSWORD = "Stare-haslo1";

/** A fresh account of the demo domain, signed in on `page` (its password changes here must not touch the demo's). */
async function freshOwner(page: Page, loginAs: (page: Page, role: "postmaster") => Promise<void>): Promise<string> {
  await loginAs(page, "postmaster");
  const name = `edge${Date.now().toString(36)}`;
  const res = await page.request.post(`/api/panel/v1/emails/${DEMO.domain}/${name}`, {
    data: { password: PASSWORD, capacity: 10 },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signIn(page, `${name}@${DEMO.domain}`, PASSWORD);
  return name;
}

test("the password rules are neither met nor unmet on an empty field", async ({ page, loginAs }) => {
  await loginAs(page, "user");
  const pw = page.getByRole("region", { name: "Zmiana hasła" });
  const rules = pw.locator("[data-rule]");
  await expect(rules).toHaveCount(4);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const rule of await rules.all()) {
      await expect(rule).not.toHaveAttribute("data-ok", /.*/);
      await expect(rule).not.toContainText("niespełnione");
    }
    await shot(page, `rules-empty-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await pw.getByLabel("Nowe hasło", { exact: true }).fill("abc");
  await expect(pw.locator('[data-rule="length"]')).toHaveAttribute("data-ok", "false");
  await expect(pw.locator('[data-rule="length"]')).toContainText("✗");
  await expect(pw.locator('[data-rule="length"]')).toContainText("niespełnione");
  await expect(pw.locator('[data-rule="letter"]')).toContainText("spełnione");
  await shot(page, "rules-typed-1280");
});

test("the current password given as the new one is refused on its field, not reported as changed", async ({
  page,
  loginAs,
}) => {
  test.setTimeout(90_000);
  await freshOwner(page, loginAs);
  for (const [locale, refused, changed] of [
    ["pl", "Nowe hasło jest takie samo jak obecne", "Hasło zostało zmienione."],
    ["en", "The new password is the same as the current one", "Your password has been changed."],
  ] as const) {
    await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
    await page.goto("/me");
    const pw = page.getByRole("region", { name: locale === "pl" ? "Zmiana hasła" : "Change password" });
    await pw.getByLabel(locale === "pl" ? "Obecne hasło" : "Current password").fill(PASSWORD);
    await pw.getByLabel(locale === "pl" ? "Nowe hasło" : "New password", { exact: true }).fill(PASSWORD);
    await pw.getByLabel(locale === "pl" ? "Powtórz nowe hasło" : "Repeat the new password").fill(PASSWORD);
    await pw.getByRole("button", { name: locale === "pl" ? "Zapisz" : "Save" }).click();
    const field = pw.getByLabel(locale === "pl" ? "Nowe hasło" : "New password", { exact: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(pw).toContainText(refused);
    await expect(pw).not.toContainText(changed);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `same-password-${locale}-${width}`);
    }
  }
  await page.context().clearCookies({ name: "locale" });
});

test('"Zmień cel" opens its form in the Cel column; on a phone under the address', async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/aliases?search=kontakt");
    await page.getByRole("button", { name: /^Zmień cel: kontakt@/ }).click();
    const input = page.getByRole("textbox", { name: /kontakt@/ });
    await expect(input).toBeFocused();
    const box = (await input.boundingBox())!;
    if (width >= 768) {
      const column = (await page.getByRole("columnheader", { name: "Cel" }).boundingBox())!;
      expect(box.x, "the form starts in the Cel column").toBeGreaterThanOrEqual(column.x - 1);
      expect(box.x + box.width, "the form ends in the Cel column").toBeLessThanOrEqual(column.x + column.width + 1);
    } else {
      const address = (await page
        .getByRole("cell", { name: /^kontakt@/ })
        .first()
        .boundingBox())!;
      expect(box.y).toBeGreaterThan(address.y);
    }
    await shot(page, `alias-target-${width}`);
    await input.press("Escape");
  }
});
