// The panel tests' server: lib/runtime/server.mjs over the production build, with the settings every panel test
// relies on. playwright.config.ts starts it as Playwright's webServer on SQLite; on PostgreSQL the global setup
// starts it itself, after the cluster it needs (Playwright starts its webServer before the global setup).
import { onPostgres } from "../support/test-database";

// Each engine has its own port, so the SQLite and PostgreSQL runs of the suite can run at once (docs/testing.md).
export const PANEL_PORT = Number(process.env.PANEL_E2E_PORT ?? (onPostgres() ? 3330 : 3310));
export const PANEL_BASE_URL = `http://127.0.0.1:${PANEL_PORT}`;
/**
 * The sandbox's DNS server the panel asks (DNS_RESOLVER), started by the global setup with the demo domain's records
 * published: UDP on the panel's port number, which is known before the webServer starts and is free for UDP
 * wherever the TCP port is ours.
 */
export const PANEL_DNS_PORT = Number(process.env.PANEL_E2E_DNS_PORT ?? PANEL_PORT);
/** The operator's host names the DNS page and the client documents show (lib/server/env.ts). */
export const PANEL_MAIL_HOSTS = { MAIL_HOST: "mail.hosting.test", WEB_HOST: "panel.hosting.test" } as const;
/** Run by node. */
export const SERVER_SCRIPT = "lib/runtime/server.mjs";

/** The server's environment, less the database (DATABASE_PATH or DATABASE_URL). */
export const panelServerEnv = (): Record<string, string> => ({
  PORT: String(PANEL_PORT),
  HOST: "127.0.0.1",
  NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
  NEXT_TELEMETRY_DISABLED: "1",
  WORKERS: "1",
  // Every test signs in from 127.0.0.1: the budget per client address must not lock the whole suite out.
  AUTH_ADDRESS_MAX_FAILURES: "1000",
  // No test client may call /api/v1 directly (192.0.2.1 is TEST-NET): the panel must work without the rule.
  ALLOWED_CLIENT_IPS: "192.0.2.1",
  // Two-step sign-in's key for the secrets at rest (a fixed test key; production sets its own).
  TOTP_ENCRYPTION_KEY: "5d1c3b0a9e8f7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817060504",
  ...PANEL_MAIL_HOSTS,
  DNS_RESOLVER: `127.0.0.1:${PANEL_DNS_PORT}`,
});
