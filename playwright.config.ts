// Browser tests of the panel (e2e/panel). They run against the PRODUCTION build (`npm test` builds first; set
// NEXT_DIST_DIR to test another build folder) served by lib/runtime/server.mjs on a throwaway SQLite file that the
// global setup seeds with the CLI's `demo` command. Chromium is Debian's headless shell (e2e/panel/chromium.ts).
// TEST_DATABASE=postgres (npm run test:e2e:pg): the global setup starts a private PostgreSQL cluster (e2e/support),
// seeds it the same way and starts the server on it itself; there is no webServer then.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/panel/chromium";
import { PANEL_BASE_URL as BASE_URL, SERVER_SCRIPT, panelServerEnv } from "./e2e/panel/server-env";
import { onPostgres } from "./e2e/support/test-database";

// One fresh database per run. The config is evaluated again in every worker; the environment carries the first
// choice to them. The webServer starts before the global setup and creates the file (empty, migrated); the setup
// seeds it, and the server sees the new data at its next read.
process.env.PANEL_E2E_DB ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-panel-e2e-")), "mail.db");

export default defineConfig({
  testDir: "e2e/panel",
  testMatch: "**/*.spec.ts",
  // What the build alone decides runs once (the same demo data drawn by the same build on either engine; the
  // services' answers on each engine are the API suites'), split so that the two runs CI starts at once take about as
  // long: where addresses wrap (and the tables fit beside long names), the browser defences, the English error texts
  // and small wording on SQLite; column widths, the scripts' size, Lighthouse's accessibility score and the editors'
  // field errors, unsaved-changes guard and dates on PostgreSQL (a11y.spec.ts keeps one load of each page there,
  // without axe).
  testIgnore: onPostgres()
    ? [
        "**/address-wrap.spec.ts",
        "**/long-names.spec.ts",
        "**/security.spec.ts",
        "**/english-errors.spec.ts",
        "**/small-edges.spec.ts",
      ]
    : ["**/table-layout.spec.ts", "**/js-size.spec.ts", "**/lighthouse.spec.ts", "**/editors.spec.ts"],
  globalSetup: "./e2e/panel/global-setup.ts",
  // Per engine: both runs may go at once, and Playwright empties its output folder when it starts.
  outputDir: onPostgres() ? "test-results/playwright-pg" : "test-results/playwright",
  // Two shared cores: one worker, tests within a file in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Upper bounds, not waits: CI runs the two engines' suites at once (docs/testing.md, "Two lanes").
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    locale: "pl-PL",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: onPostgres()
    ? undefined
    : {
        command: `node ${SERVER_SCRIPT}`,
        url: `${BASE_URL}/login`,
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: "ignore",
        stderr: "pipe",
        env: { ...panelServerEnv(), DATABASE_PATH: process.env.PANEL_E2E_DB },
      },
});
