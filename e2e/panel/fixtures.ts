// Typed fixtures of the panel's browser tests. `loginAs(page, role)` signs in through the panel's session endpoint
// (the login form itself is covered by login.spec.ts), so the browser context holds the real session cookie, then
// opens the role's landing page (/accounts or /me). Use it as `loginAs(page, "user")`, imported or as a fixture;
// `signInAs` signs in alone, for a test whose first step opens another page (one page load fewer).
// Every test also fails on a Content-Security-Policy violation that Chromium reports in the console of a page of
// its browser context (the automatic `cspViolations` fixture; contexts a test opens itself call `watchCsp`).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { WIDTHS } from "./artifacts";

/** Logins seeded by the CLI `demo` command in the global setup. */
export const DEMO = {
  domain: "demo.example.com",
  postmaster: { email: "postmaster@demo.example.com", password: "Demo-admin1", landing: "/accounts" },
  user: { email: "jan.nowak@demo.example.com", password: "Demo-user1", landing: "/me" },
} as const;

export type DemoRole = "postmaster" | "user";

/** Domains the global setup adds for the table tests: one to import into, one with SEEDED_ACCOUNTS. */
export const EXTRA_DOMAINS = {
  import: { domain: "import.example.com", email: "postmaster@import.example.com", password: "Import-admin12" },
  bulk: { domain: "bulk.example.com", email: "postmaster@bulk.example.com", password: "Bulk-admin123" },
} as const;

/** Accounts seeded into EXTRA_DOMAINS.bulk: user0001 … user1500. */
export const SEEDED_ACCOUNTS = { prefix: "user", count: 1500 } as const;

/** What the mail server reports for a mailbox, through the CLI's `usage report` (the panel has no way to set it). */
export function reportUsage(email: string, bytes: number): void {
  execFileSync(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "lib/cli/index.ts",
      "usage",
      "report",
      email,
      "--bytes",
      String(bytes),
    ],
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, DATABASE_PATH: process.env.PANEL_E2E_DB },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

export const sha1Hex = (s: string) => createHash("sha1").update(s, "utf8").digest("hex");

/** The Origin header a same-origin browser request carries (mutating BFF calls require it). */
export function originOf(page: Page): string {
  const base = test.info().project.use.baseURL;
  return new URL(page.url() === "about:blank" ? base! : page.url()).origin;
}

/** Signs the page's context in as any account (the session cookie lands in the context). */
async function signIn(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post("/api/panel/session", {
    data: { email, digest: sha1Hex(password) },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs the page's context in as a demo role without opening a page, for a test that opens its own first. */
async function signInAs(page: Page, role: DemoRole): Promise<void> {
  await signIn(page, DEMO[role].email, DEMO[role].password);
}

async function loginAs(page: Page, role: DemoRole): Promise<void> {
  await signInAs(page, role);
  await page.goto(DEMO[role].landing);
}

/** Blocks the accounts selected in the table: the toolbar's button, then the confirmation dialog's. */
export async function blockSelected(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Zablokuj" }).click();
  await page
    .getByRole("dialog", { name: "Zablokować zaznaczone konta?" })
    .getByRole("button", { name: "Zablokuj" })
    .click();
}

/** At each width screenshots are looked at (375, 1280, 1920 px): no horizontal scroll, then `shoot(width)`. */
export async function atEachWidth(page: Page, shoot: (width: number) => Promise<unknown>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      `horizontal scroll at ${width} px`,
    ).toBeLessThanOrEqual(0);
    await shoot(width);
  }
}

/**
 * One of the element's computed colours as sRGB [r, g, b]. Tailwind 4's colours compute to lab() or oklch(); a canvas
 * painted with one gives the bytes back.
 */
export function colourOf(
  locator: Locator,
  property: "borderTopColor" | "outlineColor" | "backgroundColor",
): Promise<[number, number, number]> {
  return locator.evaluate((el, prop) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    context.fillStyle = getComputedStyle(el)[prop];
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  }, property);
}

/** The red of the panel's invalid fields (red-700, about rgb(193 0 7)), told from its blue, grey and black. */
export const isRed = ([r, g, b]: [number, number, number]) => r > 150 && g < 80 && b < 80;

/** Chromium's console text for anything the page's policy refused ("... violates the following Content Security Policy directive ..."). */
const CSP_VIOLATION = /Content Security Policy/i;

/** Collects, from now on, the CSP violations reported in the console of every page of `context`. */
export function watchCsp(context: BrowserContext): string[] {
  const violations: string[] = [];
  context.on("console", (message) => {
    if (CSP_VIOLATION.test(message.text())) violations.push(`${message.location().url}: ${message.text()}`);
  });
  return violations;
}

export const test = base.extend<{ loginAs: typeof loginAs; cspViolations: string[] }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  loginAs: async ({}, provide) => {
    await provide(loginAs);
  },
  // Automatic: the panel must run entirely within its policy. A test that provokes a violation on
  // purpose empties the array after checking it.
  cspViolations: [
    async ({ context }, provide) => {
      const violations = watchCsp(context);
      await provide(violations);
      expect(violations, "Content-Security-Policy violations reported in the console").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect, loginAs, signIn, signInAs };
