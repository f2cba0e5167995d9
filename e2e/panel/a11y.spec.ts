// Accessibility and small screens: every page of AUDITED_PAGES passes axe (WCAG 2.1 A/AA) with no serious or
// critical violation, does not scroll sideways at 375 px, and is screenshotted at 1280 px and 375 px.
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { AUDITED_PAGES } from "./audited-pages";
import { expect, loginAs, test } from "./fixtures";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");
const WIDTHS = [1280, 375] as const;

for (const audited of AUDITED_PAGES) {
  test(`${audited.name} (${audited.path}) is accessible and fits 375 px`, async ({ page }) => {
    if (audited.role) await loginAs(page, audited.role);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(audited.path);
      if (audited.ready) await audited.ready(page);
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${audited.name}-${width}.png`), fullPage: true });

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal scroll at ${width} px`).toBeLessThanOrEqual(0);

      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      const serious = results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(serious, `axe at ${width} px`).toEqual([]);
    }
  });
}
