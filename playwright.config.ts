// Browser tests of the panel (e2e/panel). They run against the PRODUCTION build (`npm test` builds first; set
// NEXT_DIST_DIR to test another build folder) served by lib/runtime/server.mjs on a throwaway SQLite file that the
// global setup seeds with the CLI's `demo` command. Chromium is Debian's (/usr/bin/chromium, .ci/system-packages.sh).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.PANEL_E2E_PORT ?? 3310);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// One fresh database per run. The config is evaluated again in every worker; the environment carries the first
// choice to them. The webServer starts before the global setup and creates the file (empty, migrated); the setup
// seeds it, and the server sees the new data at its next read.
process.env.PANEL_E2E_DB ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-panel-e2e-")), "mail.db");

export default defineConfig({
  testDir: "e2e/panel",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/panel/global-setup.ts",
  outputDir: "test-results/playwright",
  // Two shared cores: one worker, tests within a file in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  use: {
    baseURL: BASE_URL,
    locale: "pl-PL",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node lib/runtime/server.mjs",
    url: `${BASE_URL}/login`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      DATABASE_PATH: process.env.PANEL_E2E_DB,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
      NEXT_TELEMETRY_DISABLED: "1",
      WORKERS: "1",
      // Every test signs in from 127.0.0.1: the budget per client address must not lock the whole suite out.
      AUTH_ADDRESS_MAX_FAILURES: "1000",
      // No test client may call /api/v1 directly (192.0.2.1 is TEST-NET): the panel must work without the rule.
      ALLOWED_CLIENT_IPS: "192.0.2.1",
      // Two-step sign-in's key for the secrets at rest (a fixed test key; production sets its own).
      TOTP_ENCRYPTION_KEY: "5d1c3b0a9e8f7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817060504",
    },
  },
});
