// Addresses wrap only at sensible points: after "@" (or the local part's dots), never inside the domain. Every
// occurrence of the demo domain in the alias and list tables, the audit log, a list's members, the account editor and
// "My account" (the account table shows names without the domain) is measured in the browser at 320, 375, 768, 1024, 1280 and 1920 px, in Polish and English,
// with a long alias present: its text must lie on one line, and the page must not scroll sideways. Screenshots of each
// (test-results/screenshots/address-wrap-*).
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO, expect, originOf, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

const PAGES = [
  { name: "aliases", path: "/aliases", scope: "main table" },
  { name: "lists", path: "/lists", scope: "main table" },
  { name: "audit", path: "/audit", scope: "main table" },
  { name: "list-members", path: "/lists/wszyscy", scope: "main ul[aria-label]" },
  // The page's title and the address among the account's facts (it broke as "demo.exampl|e.com" at 768 px).
  { name: "account-editor", path: "/accounts/anna.kowalska", scope: "main" },
  // The owner's page: its title, and the header's signed-in address above it.
  { name: "me", path: "/me", scope: "body" },
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

/** A long alias (32 characters) with a long outside target: it widens the alias table's columns. */
async function addLongAlias(page: Page) {
  const name = `aa-${Date.now().toString(36)}-long.alias-name-wrap`.slice(0, 32);
  const res = await page.request.post(`/api/panel/v1/aliases/${DEMO.domain}/${name}`, {
    data: { target: "someone.with.a.long.name@external-example-domain.org" },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(201);
}

for (const p of PAGES) {
  test(`${p.name}: the domain of an address stays on one line from 320 to 1920 px, in Polish and English`, async ({
    page,
    loginAs,
  }) => {
    test.setTimeout(150_000);
    await loginAs(page, "postmaster");
    // Also an entry of the demo domain in the audit log, whatever ran before.
    await addLongAlias(page);
    for (const locale of ["pl", "en"]) {
      await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
      for (const width of [320, 375, 768, 1024, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(p.path);
        await expect(page.locator(p.scope).getByText(DEMO.domain).first()).toBeVisible();
        const { seen, broken } = await brokenDomains(page, p.scope, DEMO.domain);
        expect(seen, `addresses of ${DEMO.domain} shown at ${width} px (${locale})`).toBeGreaterThan(0);
        expect(broken, `addresses broken inside the domain at ${width} px (${locale})`).toEqual([]);
        // Nor does the page scroll sideways (the aliases table's "Change target" once stuck out 36 px at 320 px).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal scroll at ${width} px (${locale})`).toBeLessThanOrEqual(0);
        // A row's buttons keep their words on one line from 375 px ("Zmień cel" took two there); at 320 px it may
        // wrap, so that the table fits.
        if (p.name === "aliases" && width >= 375) {
          const wrapped = await page.locator("main tbody button").evaluateAll((buttons) =>
            buttons
              .filter((button) => {
                const range = document.createRange();
                range.selectNodeContents(button);
                const lines = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
                return new Set(lines).size > 1;
              })
              .map((button) => button.getAttribute("aria-label")),
          );
          expect(wrapped, `row buttons on two lines at ${width} px (${locale})`).toEqual([]);
        }
        await page.screenshot({
          path: path.join(SCREENSHOTS, `address-wrap-${p.name}-${locale}-${width}.png`),
          fullPage: true,
        });
      }
    }
  });
}
