// A check that looks: the account, alias and list tables at 768, 1024, 1280 and 1920 px, in Polish and English,
// measured in the browser.
// It fails when a visible column is narrower than its header's text (a word of the header sticks out of its cell,
// or the column is too narrow to show it at all), when a header's word is laid out on two lines (English "Last
// sign-in" broken at its hyphen), when two header cells, or a header's text and a neighbouring cell, overlap, or
// when a row's cell content spills out of its cell (over the next column). The description column squeezed to 0 px
// wide, its header drawn over "Pojemność", fails all of these.
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, originOf, signInAs, test } from "./fixtures";
import { SCREENSHOTS } from "./artifacts";

interface HeaderBox {
  text: string;
  left: number;
  right: number;
  /** The union of the header's text boxes (its words as laid out). */
  textLeft: number;
  textRight: number;
  /** The widest single word of the header, measured alone in the header's font. */
  widestWord: number;
  /** The width the cell gives its content (without padding). */
  contentWidth: number;
  /** The header's words laid out on more than one line (broken at a hyphen, or inside a word). */
  splitWords: string[];
}

/** Every visible header cell of the page's table, measured. */
function measureHeaders(page: Page): Promise<HeaderBox[]> {
  return page.evaluate(() => {
    const out: HeaderBox[] = [];
    const canvas = document.createElement("canvas").getContext("2d")!;
    for (const th of document.querySelectorAll<HTMLTableCellElement>("main table thead th")) {
      const style = getComputedStyle(th);
      if (style.display === "none" || (th.getBoundingClientRect().width === 0 && th.textContent === "")) continue;
      const text = (th.textContent ?? "").replace(/[▲▼]/g, "").trim();
      // Headers with no visible text (the check box, the actions column's screen-reader label) have no words to fit.
      const hidden = th.querySelector(".sr-only");
      if (!text || (hidden && (th.textContent ?? "").trim() === (hidden.textContent ?? "").trim())) continue;
      const range = document.createRange();
      range.selectNodeContents(th);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const box = th.getBoundingClientRect();
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const spacing = parseFloat(style.letterSpacing) || 0;
      const shown = style.textTransform === "uppercase" ? text.toUpperCase() : text;
      const widestWord = Math.max(...shown.split(/\s+/).map((w) => canvas.measureText(w).width + spacing * w.length));
      // Each word's own boxes: a word on two lines ("sign-" and "in") has boxes at two heights.
      const splitWords: string[] = [];
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? "").matchAll(/[^\s▲▼]+/g)) {
          const wordRange = document.createRange();
          wordRange.setStart(node, word.index);
          wordRange.setEnd(node, word.index + word[0].length);
          const tops = new Set(
            [...wordRange.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
          );
          if (tops.size > 1) splitWords.push(word[0]);
        }
      }
      out.push({
        text,
        left: box.left,
        right: box.right,
        textLeft: Math.min(...rects.map((r) => r.left)),
        textRight: Math.max(...rects.map((r) => r.right)),
        widestWord,
        contentWidth: box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        splitWords,
      });
    }
    return out;
  });
}

const TABLES = [
  {
    name: "accounts",
    path: "/accounts",
    ready: (page: Page) => page.locator('main a[href="/accounts/anna.kowalska"]').waitFor(),
  },
  { name: "aliases", path: "/aliases", ready: (page: Page) => page.getByRole("cell", { name: /^kontakt@/ }).waitFor() },
  { name: "lists", path: "/lists", ready: (page: Page) => page.getByRole("link", { name: /wszyscy@/ }).waitFor() },
];

for (const table of TABLES) {
  // 768 and 1024: the tablet widths, where the md and lg breakpoints bring columns in. English headers are other words.
  for (const [locale, width] of ["pl", "en"].flatMap((l) => [768, 1024, 1280, 1920].map((w) => [l, w] as const))) {
    test(`${table.name} (${locale}) at ${width} px: every column at least as wide as its header, no header overlaps`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAs(page, "postmaster");
      await page.context().addCookies([{ name: "locale", value: locale, url: originOf(page) }]);
      await page.goto(table.path);
      await table.ready(page);
      const headers = await measureHeaders(page);
      expect(headers.length).toBeGreaterThan(1);
      const problems: string[] = [];
      const tolerance = 0.5;
      headers.forEach((h, i) => {
        if (h.contentWidth + tolerance < h.widestWord) {
          problems.push(
            `"${h.text}": column ${h.contentWidth.toFixed(0)} px is narrower than its word ${h.widestWord.toFixed(0)} px`,
          );
        }
        if (h.textLeft < h.left - tolerance || h.textRight > h.right + tolerance) {
          problems.push(
            `"${h.text}": its text (${h.textLeft.toFixed(0)}-${h.textRight.toFixed(0)}) leaves its cell (${h.left.toFixed(0)}-${h.right.toFixed(0)})`,
          );
        }
        for (const word of h.splitWords) problems.push(`"${h.text}": its word "${word}" is split across lines`);
        const next = headers[i + 1];
        if (next && (h.right > next.left + tolerance || h.textRight > next.left + tolerance)) {
          problems.push(`"${h.text}" overlaps "${next.text}"`);
        }
      });
      // The rows' cells: nothing drawn outside its cell (a usage text over the next column, a long word).
      const spills = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLTableCellElement>("main table tbody tr:nth-child(-n+10) td")]
          .filter((td) => getComputedStyle(td).display !== "none" && td.scrollWidth > td.clientWidth + 1)
          .map(
            (td) => `cell "${(td.textContent ?? "").trim().slice(0, 40)}" spills ${td.scrollWidth - td.clientWidth} px`,
          ),
      );
      problems.push(...spills);
      await page.screenshot({
        path: path.join(SCREENSHOTS, `table-layout-${table.name}${locale === "pl" ? "" : "-en"}-${width}.png`),
        fullPage: true,
      });
      expect(problems, JSON.stringify(headers, null, 1)).toEqual([]);
    });
  }
}
