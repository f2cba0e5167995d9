// Accessibility and small screens: every page of AUDITED_PAGES (each panel page, as the postmaster and as an account
// owner) passes axe (WCAG 2.1 A/AA and axe's best practices) with no violation of any impact at 1280 and 375 px, does
// not scroll sideways nor cut a select's chosen option short at 1280, 375, 768 or 1024 px (the tablet widths, where
// tables change their columns), and is screenshotted at each.
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { AUDITED_PAGES } from "./audited-pages";
import { expect, signInAs, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";
import { onPostgres } from "../support/test-database";

/**
 * Each width, and whether axe scans it there (a scan per width would double the suite's longest spec). On
 * PostgreSQL each page is opened once, at 1280 px without a scan: the markup and its widths are the build's, checked
 * on SQLite; what the engine can change is whether the page loads its data.
 */
const WIDTHS: readonly (readonly [number, boolean])[] = onPostgres()
  ? [[1280, false]]
  : [
      [1280, true],
      [375, true],
      [768, false],
      [1024, false],
    ];

for (const audited of AUDITED_PAGES) {
  const claim = onPostgres() ? "loads" : "is accessible and fits 375 to 1280 px";
  test(`${audited.name} (${audited.path}) ${claim}`, async ({ page }) => {
    // Four widths, two with a full scan: more than one default test time on two shared cores.
    test.setTimeout(120_000);
    if (audited.role) await signInAs(page, audited.role);
    for (const [width, scan] of WIDTHS) {
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
      // Nor is a select's chosen option cut short (three selects side by side at 768 px showed "Domyślnie (teraz włą").
      const cut = await page.evaluate(() => {
        const canvas = document.createElement("canvas").getContext("2d")!;
        // Chromium draws a native select's arrow inside its content box.
        const ARROW = 20;
        return [...document.querySelectorAll("select")]
          .filter((s) => s.getClientRects().length > 0)
          .flatMap((s) => {
            const style = getComputedStyle(s);
            canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const text = s.selectedOptions[0]?.text ?? "";
            const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW;
            const needs = canvas.measureText(text).width;
            return needs > room ? [`"${text}" needs ${needs.toFixed(0)} px, has ${room.toFixed(0)}`] : [];
          });
      });
      expect(cut, `selects cut short at ${width} px`).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${audited.name}-${width}.png`), fullPage: true });
      if (!scan) continue;

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
