// Addresses wrap only at sensible points: after "@" (or the local part's dots), never inside the domain. Every
// occurrence of the demo domain in the account, alias and list tables, the audit log and a list's members is
// measured in the browser at 375, 1280 and 1920 px: its text must lie on one line. Screenshots at each width
// (test-results/screenshots/address-wrap-*).
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, test } from "./fixtures";

const SCREENSHOTS = path.resolve(import.meta.dirname, "../../test-results/screenshots");

const PAGES = [
  { name: "aliases", path: "/aliases", scope: "main table" },
  { name: "lists", path: "/lists", scope: "main table" },
  { name: "audit", path: "/audit", scope: "main table" },
  { name: "list-members", path: "/lists/wszyscy", scope: "main ul[aria-label]" },
];

/** Each occurrence of `domain` in text under `scope` that the layout spreads over more than one line. */
function brokenDomains(page: Page, scope: string, domain: string) {
  return page.evaluate(
    ({ scope, domain }) => {
      const broken: string[] = [];
      let seen = 0;
      for (const root of document.querySelectorAll(scope)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          for (let at = text.indexOf(domain); at >= 0; at = text.indexOf(domain, at + 1)) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + domain.length);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            if (rects.length === 0) continue;
            seen++;
            const lines = new Set(rects.map((r) => Math.round(r.top))).size;
            if (lines > 1) broken.push(`${node.parentElement?.closest("td, li")?.textContent?.trim() ?? text}`);
          }
        }
      }
      return { seen, broken };
    },
    { scope, domain },
  );
}

for (const p of PAGES) {
  test(`${p.name}: the domain of an address stays on one line at 375, 1280 and 1920 px`, async ({ page, loginAs }) => {
    test.setTimeout(90_000);
    await loginAs(page, "postmaster");
    if (p.name === "audit") {
      // An entry of the demo domain in the log, whatever ran before: an alias made through the panel.
      const name = `wrap${Date.now().toString(36)}`;
      const res = await page.request.post(`/api/panel/v1/aliases/${DEMO.domain}/${name}`, {
        data: { target: `biuro@${DEMO.domain}` },
        headers: { origin: originOf(page) },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(p.path);
      await expect(page.locator(p.scope).getByText(DEMO.domain).first()).toBeVisible();
      const { seen, broken } = await brokenDomains(page, p.scope, DEMO.domain);
      expect(seen, `addresses of ${DEMO.domain} shown at ${width} px`).toBeGreaterThan(0);
      expect(broken, `addresses broken inside the domain at ${width} px`).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `address-wrap-${p.name}-${width}.png`), fullPage: true });
    }
  });
}
