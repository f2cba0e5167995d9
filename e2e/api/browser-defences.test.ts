// Contract §9 ("Hardening"), over real HTTP against the production server: the browser defences of the panel's
// pages (content security policy with a fresh nonce, no framing, nosniff, referrer, permissions, HSTS behind HTTPS).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { markFileRan } from "./client";

const origin = () => new URL(inject("mainBase")).origin;

describe("browser defences of the panel's pages", () => {
  beforeAll(markFileRan);
  const policy = (h: Headers) => h.get("content-security-policy") ?? "";
  it.each(["/login", "/me", "/accounts", "/no-such-page"])(
    "%s: CSP with a fresh nonce, no framing, nosniff, referrer, permissions",
    async (p) => {
      const [a, b] = await Promise.all([
        fetch(`${origin()}${p}`, { redirect: "manual" }),
        fetch(`${origin()}${p}`, { redirect: "manual" }),
      ]);
      for (const res of [a, b]) {
        const csp = policy(res.headers);
        const scriptSrc = /(?:^|; )script-src ([^;]*)/.exec(csp)?.[1] ?? "";
        expect(scriptSrc).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'$/);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("object-src 'none'");
        expect(csp).toContain("base-uri 'none'");
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("referrer-policy")).toBe("same-origin");
        expect(res.headers.get("permissions-policy")).toMatch(/(^|, )camera=\(\)(, |$)/);
        expect(res.headers.get("permissions-policy")).toMatch(/(^|, )geolocation=\(\)(, |$)/);
        expect(res.headers.get("strict-transport-security")).toBeNull();
      }
      expect(policy(a.headers)).not.toBe(policy(b.headers));
    },
  );

  it("every script of the page carries the response's nonce", async () => {
    const res = await fetch(`${origin()}/login`);
    const nonce = /'nonce-([^']+)'/.exec(policy(res.headers))![1];
    const tags = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("HSTS (and upgrade-insecure-requests) only when the request came over HTTPS through the proxy", async () => {
    const res = await fetch(`${origin()}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=\d{8,}/);
    expect(policy(res.headers)).toContain("upgrade-insecure-requests");
    const plain = await fetch(`${origin()}/login`, { headers: { "x-forwarded-proto": "http" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});
