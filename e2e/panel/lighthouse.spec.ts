// Lighthouse 12's accessibility category must score 100 on the login page (the page every user sees first), the
// account table (/accounts) and the account editor (/accounts/<name>). The signed-in pages get the session cookie
// of a postmaster signed in through the BFF. Scores go to test-results/lighthouse.json.
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, LIGHTHOUSE_CHROMIUM_PATH } from "./chromium";
import { DEMO, expect, sha1Hex, test } from "./fixtures";
import { resultsFile } from "./artifacts";

const RESULTS = resultsFile("lighthouse");
const PAGES = [
  { name: "login", path: "/login", signedIn: false },
  { name: "account table", path: "/accounts", signedIn: true },
  { name: "account editor", path: "/accounts/anna.kowalska", signedIn: true },
] as const;

test.describe.serial("Lighthouse accessibility", () => {
  let chrome: chromeLauncher.LaunchedChrome;
  let cookie = "";
  const scores: Record<string, number> = {};

  test.beforeAll(async ({ playwright, baseURL }) => {
    chrome = await chromeLauncher.launch({
      chromePath: LIGHTHOUSE_CHROMIUM_PATH,
      chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
    });
    const api = await playwright.request.newContext({ baseURL });
    const res = await api.post("/api/panel/session", {
      data: { email: DEMO.postmaster.email, digest: sha1Hex(DEMO.postmaster.password) },
      headers: { origin: new URL(baseURL!).origin },
    });
    expect(res.status()).toBe(200);
    cookie = /^[^;]+/.exec(res.headers()["set-cookie"] ?? "")![0];
    await api.dispose();
  });

  test.afterAll(() => {
    chrome?.kill();
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(RESULTS, `${JSON.stringify(scores, null, 2)}\n`);
  });

  for (const audited of PAGES) {
    test(`the ${audited.name} (${audited.path}) scores 100`, async ({ baseURL }) => {
      test.setTimeout(120_000);
      const result = await lighthouse(`${baseURL}${audited.path}`, {
        port: chrome.port,
        onlyCategories: ["accessibility"],
        logLevel: "error",
        output: "json",
        extraHeaders: audited.signedIn ? { Cookie: cookie } : undefined,
      });
      const lhr = result!.lhr;
      // Signed in means the page itself, not the login page it would redirect to.
      expect(new URL(lhr.finalDisplayedUrl).pathname).toBe(audited.path);
      scores[audited.path] = Math.round(lhr.categories.accessibility!.score! * 100);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
        .map(
          (a) =>
            `${a.id}: ${a.title} — ${JSON.stringify((a.details as { items?: unknown[] } | undefined)?.items?.slice(0, 3))}`,
        );
      expect(failing).toEqual([]);
      expect(lhr.categories.accessibility!.score).toBe(1);
    });
  }
});
