// Typed fixtures of the panel's browser tests. `loginAs(page, role)` signs in through the panel's session endpoint
// (the login form itself is covered by login.spec.ts), so the browser context holds the real session cookie, then
// opens the role's landing page (/accounts or /me). Use it as `loginAs(page, "user")`, imported or as a fixture.
import { createHash } from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";

/** Logins seeded by the CLI `demo` command in the global setup. */
export const DEMO = {
  domain: "demo.example.com",
  postmaster: { email: "postmaster@demo.example.com", password: "Demo-admin1", landing: "/accounts" },
  user: { email: "jan.nowak@demo.example.com", password: "Demo-user1", landing: "/me" },
} as const;

export type DemoRole = "postmaster" | "user";

export const sha1Hex = (s: string) => createHash("sha1").update(s, "utf8").digest("hex");

/** The Origin header a same-origin browser request carries (mutating BFF calls require it). */
export function originOf(page: Page): string {
  const base = test.info().project.use.baseURL;
  return new URL(page.url() === "about:blank" ? base! : page.url()).origin;
}

async function loginAs(page: Page, role: DemoRole): Promise<void> {
  const who = DEMO[role];
  const res = await page.request.post("/api/panel/session", {
    data: { email: who.email, digest: sha1Hex(who.password) },
    headers: { origin: originOf(page) },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(who.landing);
}

export const test = base.extend<{ loginAs: typeof loginAs }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures must destructure their dependencies
  loginAs: async ({}, provide) => {
    await provide(loginAs);
  },
});

export { expect, loginAs };
