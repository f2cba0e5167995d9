// The postmaster's three tables beside the longest unbroken names the rules allow (32 characters without a dot or a
// hyphen) and long unbroken addresses and descriptions, at 375, 768, 1280 and 1920 px in Polish and English: the page
// never scrolls sideways, each table stays inside its card's border, every row button inside the table, no cell's
// content spills out of its cell and no visible column is squeezed below 2 rem (the check box's column is 2.5 rem; a
// text column broken after every letter would be narrower). Screenshots: test-results/screenshots/long-names-*.
import path from "node:path";
import type { Page } from "@playwright/test";
import { SCREENSHOTS } from "./artifacts";
import { DEMO, expect, originOf, test } from "./fixtures";

/** `prefix` filled up to `length` characters with letters: no dot, hyphen or other place the browser may break. */
const unbroken = (prefix: string, length: number) =>
  (prefix + "bardzodluganazwabezkropekaniminusowktorasieniemiesci").slice(0, length);

/** What the page's tables measure against their cards and the window. */
function measure(page: Page) {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    tables: [...document.querySelectorAll<HTMLTableElement>("main table")].map((table) => {
      const card = table.parentElement!;
      const right = table.getBoundingClientRect().right;
      return {
        width: table.offsetWidth,
        cardWidth: card.clientWidth,
        buttonsOutside: [...table.querySelectorAll("tbody button")]
          .filter((b) => b.getBoundingClientRect().right > right + 0.5)
          .map((b) => b.getAttribute("aria-label") ?? b.textContent),
        // A row's buttons within their own cell: a too narrow actions column let them run over the column before it.
        buttonsOverCell: [...table.querySelectorAll("tbody button")]
          .filter((b) => {
            const cell = b.closest("td")!.getBoundingClientRect();
            const box = b.getBoundingClientRect();
            return box.left < cell.left - 0.5 || box.right > cell.right + 0.5;
          })
          .map((b) => b.getAttribute("aria-label") ?? b.textContent),
        narrowColumns: [...table.querySelectorAll<HTMLTableCellElement>("thead th")]
          .filter((th) => getComputedStyle(th).display !== "none")
          .map((th) => ({ text: th.textContent?.trim() ?? "", width: th.getBoundingClientRect().width }))
          .filter((th) => th.width < 32),
        spills: [...table.querySelectorAll<HTMLTableCellElement>("tbody td")]
          .filter((td) => getComputedStyle(td).display !== "none" && td.scrollWidth > td.clientWidth + 1)
          .map((td) => `"${(td.textContent ?? "").trim().slice(0, 40)}" by ${td.scrollWidth - td.clientWidth} px`),
      };
    }),
  }));
}

test("the account, alias and list tables fit their cards and the window beside long unbroken names, in Polish and English", async ({
  page,
  loginAs,
}) => {
  test.setTimeout(180_000);
  await loginAs(page, "postmaster");
  const token = `z${Date.now().toString(36)}`;
  const headers = { origin: originOf(page) };
  // One domain's accounts, aliases and lists share their names: each of the three its own.
  const names = {
    aliases: unbroken(`${token}a`, 32),
    accounts: unbroken(`${token}k`, 32),
    lists: unbroken(`${token}l`, 32),
  };
  const created: string[] = [];
  const create = async (url: string, data: object) => {
    const res = await page.request.post(`/api/panel/v1/${url}`, { data, headers });
    expect(res.status(), await res.text()).toBe(201);
    created.push(url);
  };
  try {
    // Aliases: a 32-character name with a long outside target (dots in its local part only), and a short name with
    // a 57-character unbroken local part and a long unbroken domain label.
    await create(`aliases/${DEMO.domain}/${names.aliases}`, {
      target:
        "bardzo.dlugi.adres.docelowy.aliasu.ktory.nie.miesci.sie.w.kolu@zewnetrznadomenaodlugiejnazwie.example.org",
    });
    await create(`aliases/${DEMO.domain}/${token}b`, {
      target: `${unbroken("zespolwsparcia", 57)}@partnerzewnetrznyzbardzodlugananazwadomeny.example.com`,
    });
    await create(`emails/${DEMO.domain}/${names.accounts}`, {
      password: "Haslo-123",
      capacity: 10,
      description: `Opis ${unbroken("bezspacji", 40)}`,
    });
    await create(`mailinglists/${DEMO.domain}/${names.lists}`, {
      description: `Opis ${unbroken("bezspacji", 40)}`,
    });

    const problems: string[] = [];
    for (const [name, url] of [
      ["aliases", "/aliases"],
      ["accounts", "/accounts"],
      ["lists", "/lists"],
    ] as const) {
      for (const locale of ["pl", "en"] as const) {
        await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
        for (const width of [375, 768, 1280, 1920]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${url}?search=${token}`);
          await expect(page.getByRole("row").filter({ hasText: names[name] })).toBeVisible();
          await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
          const m = await measure(page);
          const at = `${name} at ${width} px (${locale})`;
          if (m.scrollWidth > width) problems.push(`${at}: the page is ${m.scrollWidth} px wide`);
          for (const t of m.tables) {
            if (t.width > t.cardWidth)
              problems.push(`${at}: the table is ${t.width} px in a card of ${t.cardWidth} px`);
            for (const b of t.buttonsOutside) problems.push(`${at}: "${b}" outside the table`);
            for (const b of t.buttonsOverCell) problems.push(`${at}: "${b}" out of its cell`);
            for (const c of t.narrowColumns) problems.push(`${at}: column "${c.text}" ${c.width.toFixed(0)} px wide`);
            for (const s of t.spills) problems.push(`${at}: cell ${s} wider than its cell`);
          }
          await page.screenshot({
            path: path.join(SCREENSHOTS, `long-names-${name}-${locale}-${width}.png`),
            fullPage: true,
          });
        }
      }
    }
    expect(problems).toEqual([]);
  } finally {
    await page.context().addCookies([{ name: "locale", value: "pl", url: originOf(page) }]);
    // Soft: a failed delete is reported without hiding the failure that brought the test here.
    for (const url of created) {
      const res = await page.request.delete(`/api/panel/v1/${url}`, { headers });
      expect.soft(res.status(), `DELETE ${url}: ${await res.text()}`).toBe(204);
    }
  }
});
