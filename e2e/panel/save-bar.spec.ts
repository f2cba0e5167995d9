// The long editors' sticky save bar (the account and list editors): edged and padded as the cards above it, so its
// button lines up with the cards' fields instead of their outer edge (it stood at x=80 beside fields at x=105 at
// 1280 px). Screenshots at 375, 1280 and 1920 px (test-results/screenshots/save-bar-*).
import path from "node:path";
import { SCREENSHOTS } from "./artifacts";
import { expect, test } from "./fixtures";

test.beforeEach(async ({ page, loginAs }) => {
  await loginAs(page, "postmaster");
});

for (const [what, url, save, firstField] of [
  ["account", "/accounts/jan.nowak", "Zapisz zmiany", "Opis"],
  ["list", "/lists/wszyscy", "Zapisz listę", "Opis (nazwa nadawcy)"],
] as const) {
  test(`the ${what} editor's save button lines up with its first field at 375, 1280 and 1920 px`, async ({ page }) => {
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      const button = page.getByRole("button", { name: save, exact: true });
      const field = page.getByLabel(firstField, { exact: true });
      await expect(field).toBeVisible();
      const [b, f] = [(await button.boundingBox())!, (await field.boundingBox())!];
      expect(Math.abs(b.x - f.x), `button x ${b.x}, field x ${f.x} at ${width} px`).toBeLessThanOrEqual(1);
      await page.screenshot({ path: path.join(SCREENSHOTS, `save-bar-${what}-${width}.png`) });
    }
  });
}
