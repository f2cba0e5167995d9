// The JavaScript each page loads on its first visit, gzipped, measured in the browser (Next 16 no longer prints
// it): a fresh browser context (empty cache) opens the page, waits until it shows its data, and sums the
// Performance API's encodedBodySize (the bytes as sent, gzip) of every script. Each page must stay under 250 kB;
// the figures go to test-results/js-size.json. The scripts the page's HTML names (its first load) must carry V8's
// compile hint (scripts/compile-hints.mjs, run by `npm run build`).
import fs from "node:fs";
import path from "node:path";
import { AUDITED_PAGES } from "./audited-pages";
import { DEMO, expect, originOf, sha1Hex, test, watchCsp } from "./fixtures";
import { resultsFile } from "./artifacts";

const RESULTS = resultsFile("js-size");
const LIMIT_BYTES = 250 * 1000;
/** Next's compression middleware sends smaller bodies uncompressed (the `compression` package's default threshold). */
const COMPRESSION_THRESHOLD_BYTES = 1024;
const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
const PAGES = AUDITED_PAGES.filter((p) => !p.path.includes("?"));

interface ScriptEntry {
  url: string;
  encoded: number;
  decoded: number;
}

test.describe.serial("first-load JavaScript", () => {
  const figures: Record<string, { path: string; gzipKB: number; rawKB: number; scripts: number }> = {};

  test.afterAll(() => {
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, `${JSON.stringify(figures, null, 2)}\n`);
  });

  for (const measured of PAGES) {
    test(`${measured.name} (${measured.path}) loads under 250 kB of gzipped JavaScript`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ baseURL, locale: "pl-PL" });
      const cspViolations = watchCsp(context);
      try {
        const page = await context.newPage();
        if (measured.role) {
          const who = DEMO[measured.role];
          const res = await page.request.post("/api/panel/session", {
            data: { email: who.email, digest: sha1Hex(who.password) },
            headers: { origin: originOf(page) },
          });
          expect(res.status()).toBe(200);
        }
        // Every script must come compressed, else encodedBodySize would not be the gzipped size. The one exception
        // is a body under the server's compression threshold (Next's `compression` middleware, default 1 kB; e.g. the
        // ~200-byte loader Turbopack emits for a dynamic import): it is sent as is and counted at its full size, which
        // can only overstate the gzipped total.
        const uncompressed: string[] = [];
        const starts = new Map<string, Promise<string>>();
        page.on("response", async (r) => {
          if (r.request().resourceType() !== "script") return;
          starts.set(
            new URL(r.url()).pathname,
            r.text().then((t) => t.slice(0, COMPILE_HINT.length)),
          );
          const enc = (await r.allHeaders())["content-encoding"];
          if (enc === "gzip" || enc === "br") return;
          const bytes = (await r.body()).length;
          if (bytes >= COMPRESSION_THRESHOLD_BYTES)
            uncompressed.push(`${r.url()} (${enc ?? "identity"}, ${bytes} bytes)`);
        });
        const navigation = await page.goto(measured.path);
        if (measured.ready) await measured.ready(page);
        await expect(page.locator("[aria-busy=true]")).toHaveCount(0);
        await page.waitForLoadState("networkidle");

        const scripts = await page.evaluate(() =>
          performance
            .getEntriesByType("resource")
            .map((e) => e as PerformanceResourceTiming)
            .filter((e) => e.initiatorType === "script" || /\.m?js(\?|$)/.test(new URL(e.name).pathname))
            .map((e): ScriptEntry => ({ url: e.name, encoded: e.encodedBodySize, decoded: e.decodedBodySize })),
        );
        expect(uncompressed, "scripts sent without gzip").toEqual([]);
        // The first-load scripts (named in the HTML; the legacy browsers' nomodule polyfills aside) are marked.
        const html = (await navigation?.text()) ?? "";
        const firstLoad = [...html.matchAll(/<script\b[^>]*>/g)]
          .map(([tag]) => tag)
          .filter((tag) => !/\bnomodule\b/i.test(tag))
          .flatMap((tag) => /\bsrc="([^"]+)"/.exec(tag)?.[1] ?? [])
          .map((src) => new URL(src, page.url()).pathname);
        expect(firstLoad.length).toBeGreaterThan(0);
        const unmarked = [];
        for (const src of firstLoad) if ((await starts.get(src)) !== COMPILE_HINT) unmarked.push(src);
        expect(unmarked, "first-load scripts without the compile hint").toEqual([]);
        expect(scripts.length).toBeGreaterThan(0);
        const gzip = scripts.reduce((n, s) => n + s.encoded, 0);
        const raw = scripts.reduce((n, s) => n + s.decoded, 0);
        figures[measured.name] = {
          path: measured.path,
          gzipKB: +(gzip / 1000).toFixed(1),
          rawKB: +(raw / 1000).toFixed(1),
          scripts: scripts.length,
        };
        expect(gzip, `${measured.path}: ${(gzip / 1000).toFixed(1)} kB gzipped`).toBeLessThan(LIMIT_BYTES);
        expect(cspViolations, "Content-Security-Policy violations reported in the console").toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
