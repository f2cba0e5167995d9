// Screenshots of the postmaster pages at desktop and phone widths (test-results/screenshots/), and a check that
// no page scrolls sideways at 375 px (tables scroll inside their own box).
import { expect, test } from "./fixtures";

const PAGES = [
  ["domain", "/domain", "Ustawienia domeny"],
  ["accounts", "/accounts", "Konta pocztowe"],
  ["account-editor", "/accounts/anna.kowalska", "Konto anna.kowalska@demo.example.com"],
  ["aliases", "/aliases", "Aliasy"],
  ["lists", "/lists", "Listy dyskusyjne"],
  ["list-editor", "/lists/wszyscy", "Lista wszyscy@demo.example.com"],
] as const;

for (const width of [1280, 375]) {
  test(`postmaster pages at ${width} px`, async ({ page, loginAs }) => {
    await page.setViewportSize({ width, height: 900 });
    await loginAs(page, "postmaster");
    for (const [slug, path, heading] of PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/screenshots/postmaster-${slug}-${width}.png`, fullPage: true });
    }
  });
}
