// Lighthouse 12's accessibility category on the login page (the page every user sees first) must score 100.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { expect, test } from "./fixtures";

test("the login page scores 100 in Lighthouse's accessibility category", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    port: Number(process.env.PANEL_LIGHTHOUSE_PORT ?? 3320),
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const result = await lighthouse(`${baseURL}/login`, { port: chrome.port, onlyCategories: ["accessibility"], logLevel: "error", output: "json" });
    const lhr = result!.lhr;
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === "binary")
      .map((a) => `${a.id}: ${a.title}`);
    expect(failing).toEqual([]);
    expect(lhr.categories.accessibility!.score).toBe(1);
  } finally {
    chrome.kill();
  }
});
