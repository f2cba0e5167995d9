// Accessibility and small screens: every page of AUDITED_PAGES (each panel page, as the postmaster and as an account
// owner) passes axe (WCAG 2.1 A/AA and axe's best practices) with no violation of any impact, does not scroll
// sideways at 375 px, and is screenshotted at 1280 px and 375 px.
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { AUDITED_PAGES } from "./audited-pages";
import { expect, signInAs, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const WIDTHS = [1280, 375] as const;

for (const audited of AUDITED_PAGES) {
  test(`${audited.name} (${audited.path}) is accessible and fits 375 px`, async ({ page }) => {
    // Two widths, each with a full scan: more than one default test time on two shared cores.
    test.setTimeout(90_000);
    if (audited.role) await signInAs(page, audited.role);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(audited.path);
      if (audited.ready) await audited.ready(page);
      await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
      // Measured before the full-page screenshot, which resizes the viewport while it captures.
      const overflow = await page.evaluate(() => {
        const by = document.documentElement.scrollWidth - window.innerWidth;
        // What sticks out, so a failure says where to look.
        const culprits = [...document.querySelectorAll("body *")]
          .filter(
            (el) =>
              el.getBoundingClientRect().right > window.innerWidth + 0.5 && !el.closest("[class*=overflow-x-auto]"),
          )
          .slice(0, 5)
          .map(
            (el) =>
              `${el.tagName.toLowerCase()}.${String(el.getAttribute("class") ?? "")
                .split(" ")
                .slice(0, 4)
                .join(".")}`,
          );
        return { by, culprits };
      });
      expect(overflow.by, `horizontal scroll at ${width} px: ${overflow.culprits.join(", ")}`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${audited.name}-${width}.png`), fullPage: true });

      const results = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
        .analyze();
      const violations = results.violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
      );
      expect(violations, `axe at ${width} px`).toEqual([]);
    }
  });
}
