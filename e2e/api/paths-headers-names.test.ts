/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Paths, headers, reserved names and bidirectional controls, and what a hostile client could do with them, over
// real HTTP against the production server: a server of its own, set up as sessions-lockouts-customers.test.ts's
// (TRUSTED_PROXIES=127.0.0.1, SERVER_NAMES=127.0.0.1,localhost). The probe table in docs/security.md names these tests.
import { describe, expect, it } from "vitest";
import { api, expectError, expectErrorBody, expectStatus } from "./client";
import { ownServer, pm } from "./own-server";
import { clientsOf } from "./proxied-clients";

const A = "c1a.example.com"; // customer 1
const B = "c1b.example.com"; // customer 1 too (domain add --customer c1a.example.com)
const C = "c2.example.com"; // customer 2, another customer
const { PORT, ORIGIN, V1, createAccount } = ownServer({
  name: "h3b",
  portOffset: 30,
  domains: { a: A, b: B, c: C },
  env: { WORKERS: "1", TRUSTED_PROXIES: "127.0.0.1", SERVER_NAMES: "127.0.0.1,localhost" },
});
const { raw } = clientsOf(PORT, ORIGIN);

describe("5. paths and headers: no redirect, the same defences everywhere", () => {
  const PAGE_HEADERS = ["content-security-policy", "x-frame-options", "x-content-type-options", "referrer-policy"];

  it("an absolute-form request target never redirects: /api/v1 answers 404.4 JSON, pages 400", async () => {
    const api1 = await raw({ target: "http://evil.example/api/v1/emails/y.test/bob" });
    expect(api1.status).toBe(404);
    expect(api1.headers.location).toBeUndefined();
    expectErrorBody(api1.json, "endpointNotFound");
    const panelApi = await raw({ target: "http://evil.example/api/panel/session" });
    expect(panelApi.status).toBe(404);
    for (const target of ["http://evil.example/login", "http://evil.example/", "http://127.0.0.1/me", "*"]) {
      const res = await raw({ target });
      expect(res.status, target).toBe(400);
      expect(res.headers.location).toBeUndefined();
      for (const h of PAGE_HEADERS) expect(res.headers[h], `${target} ${h}`).toBeTruthy();
    }
  });

  it("a foreign Host never redirects either", async () => {
    const api1 = await raw({ target: `/api/v1/emails/${A}/kim`, headers: { host: "evil.example" } });
    expect(api1.status).toBe(404);
    expectErrorBody(api1.json, "endpointNotFound");
    for (const target of ["/", "/login", "/me", "//login"]) {
      const res = await raw({ target, headers: { host: "evil.example" } });
      expect(res.status, target).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    // The server's own names still work, with any port.
    expect((await raw({ target: "/login", headers: { host: `localhost:${PORT}` } })).status).toBe(200);
    // Mail clients' set-up documents are asked for on each hosted domain's names (autoconfig.<domain>...); their
    // handlers answer for hosted domains only.
    const config = await raw({ target: "/mail/config-v1.1.xml", headers: { host: `autoconfig.${A}` } });
    expect(config.status).toBe(200);
    expect(config.text).toContain(`<domain>${A}</domain>`);
    expect((await raw({ target: "/mail/config-v1.1.xml", headers: { host: "autoconfig.evil.example" } })).status).toBe(
      404,
    );
    expect((await raw({ target: "/.well-known/autoconfig/mail/config-v1.1.xml", headers: { host: A } })).status).toBe(
      200,
    );
    expect((await raw({ target: "/login", headers: { host: `autoconfig.${A}` } })).status).toBe(400);
  });

  it("prefetch requests get the page's policy (with a nonce), framing and sniffing defences", async () => {
    const prefetches: Record<string, string>[] = [
      { purpose: "prefetch" },
      { "next-router-prefetch": "1", rsc: "1" },
      { "sec-purpose": "prefetch" },
    ];
    for (const headers of prefetches) {
      const res = await raw({ target: "/login", headers });
      // Next sends an RSC request without its cache-busting _rsc parameter to the same path with one (relative).
      if (headers.rsc) expect(res.headers.location ?? "/login?_rsc=", res.text).toMatch(/^\/login\?_rsc=/);
      else expect(res.status).toBe(200);
      expect(res.headers["content-security-policy"]).toMatch(
        /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/,
      );
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("same-origin");
    }
  });

  it("paths under /api that match nothing answer JSON 404.4; static files carry the defences", async () => {
    for (const target of ["/api/foo", "/api/", "/api", "/api/v2/emails/x", "/api/health/x", "/api/foo?x=1"]) {
      for (const method of ["GET", "POST"]) {
        const res = await raw({ method, target });
        expect(res.status, `${method} ${target}`).toBe(404);
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        expectErrorBody(res.json, "endpointNotFound");
      }
    }
    const html404 = await raw({ target: "/no-such-page" });
    expect(html404.status).toBe(404);
    for (const h of PAGE_HEADERS) expect(html404.headers[h], h).toBeTruthy();
    const icon = await raw({ target: "/icon.svg" });
    for (const h of PAGE_HEADERS) expect(icon.headers[h], `icon ${h}`).toBeTruthy();
  });
});

describe("6. reserved local parts and bidirectional controls", () => {
  it("an ordinary account cannot take admin@, abuse@, ... as aliases; the domain's administrator can", async () => {
    const eve = await createAccount(C, "eve", "Eve-pass-1", { alias_limit: 5 });
    for (const local of [
      "admin",
      "administrator",
      "hostmaster",
      "webmaster",
      "abuse",
      "root",
      "ssladmin",
      "security",
      "postmaster",
    ]) {
      const res = await api("PUT", `emails/${C}/eve`, { base: V1, auth: eve, body: { aliases: [`${local}@${C}`] } });
      expectError(res, "invalidAliases", "aliases");
      expect(res.json.attributes).toEqual({ address: `${local}@${C}`, reserved: true });
    }
    expectStatus(await api("PUT", `emails/${C}/eve`, { base: V1, auth: eve, body: { aliases: [`eve.x@${C}`] } }), 200);
    expectStatus(
      await api("PUT", `emails/${C}/eve`, { base: V1, auth: pm(C), body: { aliases: [`webmaster@${C}`] } }),
      200,
    );
    // Once given by the administrator, the owner may send the set back unchanged.
    expectStatus(
      await api("PUT", `emails/${C}/eve`, { base: V1, auth: eve, body: { aliases: [`webmaster@${C}`] } }),
      200,
    );
  });

  it("U+202A-U+202E and U+2066-U+2069 are refused in one-line texts", async () => {
    await createAccount(C, "rtl");
    for (const ch of ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"]) {
      const res = await api("PUT", `emails/${C}/rtl`, {
        base: V1,
        auth: pm(C),
        body: { description: `gpj${ch}exe.txt` },
      });
      expectError(res, "invalidDescription", "description");
    }
    expectError(
      await api("POST", `mailinglists/${C}/news`, { base: V1, auth: pm(C), body: { description: "a\u202eb" } }),
      "invalidListText",
    );
    // Right-to-left text itself is fine.
    expectStatus(
      await api("PUT", `emails/${C}/rtl`, { base: V1, auth: pm(C), body: { description: "שלום עולם" } }),
      200,
    );
  });
});
