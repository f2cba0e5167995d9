/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- response bodies are untyped JSON */
// Sessions, lockouts and customers, and what a hostile client could do with them, over real HTTP against the production server. This file starts a
// server of its own, with TRUSTED_PROXIES=127.0.0.1 (so that a request from 127.0.0.1 with X-Forwarded-For stands
// for any client address) and SERVER_NAMES=127.0.0.1,localhost; requests from other loopback addresses
// (127.0.51.x, bound as the probe did) are untrusted peers. The probe table in docs/security.md names these tests.
import { databaseEnv } from "../support/test-database";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { panelErrors } from "@/lib/errors/panel-errors";
import {
  api,
  basic,
  expectError,
  expectErrorBody,
  expectStatus,
  rawRequest,
  sha1Hex,
  type Creds,
  type RawResponse,
} from "./client";
import { NODE_TSX, run, startServer, stop, type Server } from "./global-setup";

const A = "c1a.example.com"; // customer 1
const B = "c1b.example.com"; // customer 1 too (domain add --customer c1a.example.com)
const C = "c2.example.com"; // customer 2, another customer
const PORT = Number(process.env.API_TEST_PORT ?? 3200) + 10;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const V1 = `${ORIGIN}/api/v1`;
const PW = "Postmaster-1";
const pm = (d: string): Creds => ({ email: `postmaster@${d}`, password: PW });

let dir: string;
let dbPath: string;
/** Its database: the file, or a PostgreSQL database of its own (e2e/support/test-database.ts). */
let dbEnv: Record<string, string> = {};
let server: Server;
const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_PATH: dbPath,
    ...dbEnv,
    WORKERS: "1",
    SCRYPT_COST: "1024",
    AUTH_MAX_FAILURES: "5",
    AUTH_LOCKOUT_SECONDS: "60",
    AUTH_ADDRESS_MAX_FAILURES: "50",
    TRUSTED_PROXIES: "127.0.0.1",
    SERVER_NAMES: "127.0.0.1,localhost",
  };
  delete e.ALLOWED_CLIENT_IPS;
  return e;
};

/** The operator CLI on this file's database; its standard output. */
const cli = (...args: string[]) =>
  execFileSync(process.execPath, [...NODE_TSX, "lib/cli/index.ts", ...args], { env: env(), encoding: "utf8" });

type Raw = RawResponse;

/** One HTTP request exactly as given: the request target, the Host, the local address to send from. */
const raw = (opts: {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: unknown;
  localAddress?: string;
}): Promise<Raw> => rawRequest({ ...opts, origin: `http://127.0.0.1:${PORT}` });

/** A client at `address`: through the trusted proxy (127.0.0.1 with X-Forwarded-For), or bound to it directly. */
const from = (address: string, direct = false) =>
  direct ? { localAddress: address } : { headers: { "x-forwarded-for": `10.1.1.1, ${address}` } };

/** The panel's sign-in as a browser at `address` makes it; `cookies` are sent as they are. */
function signIn(c: Creds, address = "192.0.2.1", cookies = "", extra: Record<string, string> = {}) {
  const f = from(address);
  return raw({
    method: "POST",
    target: "/api/panel/session",
    headers: { origin: ORIGIN, ...f.headers, ...(cookies ? { cookie: cookies } : {}), ...extra },
    body: { email: c.email, digest: sha1Hex(c.password) },
  });
}

const setCookies = (r: Raw) => (r.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);
const cookieValue = (r: Raw, name: string) => setCookies(r).find((c) => c.startsWith(`${name}=`));
const sessionOf = (r: Raw) => cookieValue(r, "mailadmin_session")!;
const deviceOf = (r: Raw) => cookieValue(r, "mailadmin_device")!;

const panel = (method: string, target: string, cookie: string, body?: unknown) =>
  raw({ method, target, headers: { origin: ORIGIN, cookie }, body });
const whoAmI = (cookie: string) => panel("GET", "/api/panel/session", cookie);

/** A v1 call at a client address (Basic credentials). */
function v1(method: string, target: string, c: Creds | null, address = "127.0.0.1", body?: unknown, direct = false) {
  const f = from(address, direct);
  return raw({
    method,
    target: `/api/v1/${target}`,
    localAddress: f.localAddress,
    headers: { ...f.headers, ...(c ? { authorization: basic(c) } : {}) },
    body,
  });
}

const asApi = (r: Raw) => ({
  status: r.status,
  headers: new Headers(r.headers as Record<string, string>),
  text: r.text,
  json: r.json,
});

async function createAccount(d: string, name: string, password = "Secret-123", extra: Record<string, unknown> = {}) {
  const res = await api("POST", `emails/${d}/${name}`, {
    base: V1,
    auth: pm(d),
    body: { password, capacity: 1, ...extra },
  });
  expectStatus(res, 201);
  return { email: `${name}@${d}`, password };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mail-admin-h3-"));
  dbPath = path.join(dir, "h3.db");
  dbEnv = await databaseEnv("h3", dbPath);
  const add = (d: string, ...more: string[]) => ["domain", "add", d, "--postmaster-password", PW, ...more];
  await run([...NODE_TSX, "e2e/api/seed.ts", JSON.stringify([add(A), add(B, "--customer", A), add(C)])], env());
  server = await startServer("h3", PORT, env(), dir);
}, 120_000);

afterAll(async () => {
  if (server) await stop(server);
  if (!process.env.KEEP_API_TEST_DIR) fs.rmSync(dir, { recursive: true, force: true });
});

describe("1. password and restricted fields: the service's rule, whatever the path", () => {
  it("a multi-name PUT naming the session's own account with a password is refused, and the password is unchanged", async () => {
    await createAccount(A, "kim");
    const session = sessionOf(await signIn(pm(A)));
    for (const names of ["postmaster,kim", "kim,postmaster", "postmaster"]) {
      const res = await panel("PUT", `/api/panel/v1/emails/${A}/${names}`, session, { password: "Taken-over-1" });
      expect(res.status, `${names}: ${res.text}`).toBe(403);
      expect(res.json).toMatchObject({ code: panelErrors.currentPasswordRequired.code, source: "password" });
    }
    // Nothing changed: the old password works, the new one does not, and the session is still alive.
    expectStatus(asApi(await v1("GET", `domains/${A}`, pm(A))), 200);
    expectError(asApi(await v1("GET", `domains/${A}`, { ...pm(A), password: "Taken-over-1" })), "badCredentials");
    expect((await whoAmI(session)).status).toBe(200);
    // Another account's password, through the same kind of PUT: the administrator may.
    expectStatus(asApi(await panel("PUT", `/api/panel/v1/emails/${A}/kim`, session, { password: "Kim-pass-2" })), 200);
    // Basic credentials (the password itself) may change their own password through /api/v1.
    expectStatus(
      asApi(
        await v1("PUT", `emails/${A}/kim`, { email: `kim@${A}`, password: "Kim-pass-2" }, "127.0.0.1", {
          password: "Kim-pass-3",
        }),
      ),
      200,
    );
  });
});

describe("2. throttling stops guessing without locking out the innocent", () => {
  it("50 failed sign-ins with made-up addresses from one address, then a correct one from it: signed in", async () => {
    const shared = "203.0.113.50";
    for (let i = 0; i < 50; i++) {
      const res = await signIn({ email: `made-up-${i}@${A}`, password: "Guess-123" }, shared);
      expect(res.status).toBe(403);
      expectErrorBody(res.json, "badCredentials");
    }
    // Past the address's budget a failure is answered slowly...
    const t0 = performance.now();
    expect((await signIn({ email: `made-up-x@${A}`, password: "Guess-123" }, shared)).status).toBe(403);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    // ...but the right password is never refused: on the panel and on /api/v1.
    const right = await signIn(pm(C), shared);
    expect(right.status, right.text).toBe(200);
    expectStatus(asApi(await v1("GET", `domains/${C}`, pm(C), shared)), 200);
  });

  it("60 guesses over 12 addresses bound directly (no proxy): the account locks, for every address", async () => {
    const target = await createAccount(A, "target", "Target-pass-1");
    let locked = 0;
    for (let a = 1; a <= 12; a++) {
      for (let i = 0; i < 5; i++) {
        const res = await v1(
          "GET",
          `emails/${A}/target`,
          { ...target, password: `Wrong-${a}-${i}` },
          `127.0.51.${a}`,
          undefined,
          true,
        );
        expect(res.status).toBe(403);
        if (res.json.message === "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie później.") locked++;
      }
    }
    expect(locked).toBeGreaterThan(0);
    const thirteenth = await v1("GET", `emails/${A}/target`, target, "127.0.51.13", undefined, true);
    expectError(asApi(thirteenth), "tooManyFailures");
    expect(thirteenth.json.attributes.retry_after).toBeGreaterThan(0);
    // And through the proxy, as a panel sign-in without a device cookie.
    const viaPanel = await signIn(target, "198.51.100.77");
    expect(viaPanel.status).toBe(403);
    expectErrorBody(viaPanel.json, "tooManyFailures");
  });

  it("a browser with a device cookie for the account signs in during the lock; it is throttled on its own", async () => {
    const owner = await createAccount(A, "owner", "Owner-pass-1");
    const first = await signIn(owner, "192.0.2.10");
    expect(first.status).toBe(200);
    const device = deviceOf(first);
    expect(device).toMatch(/^mailadmin_device=[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(first.headers["set-cookie"]!.find((c) => c.startsWith("mailadmin_device="))).toMatch(
      /HttpOnly; SameSite=Strict/,
    );
    // An attacker from many addresses locks the account.
    for (let i = 0; i < 5; i++) await signIn({ ...owner, password: `Guess-${i}` }, `198.51.100.${i + 1}`);
    expectErrorBody((await signIn(owner, "192.0.2.10")).json, "tooManyFailures");
    expectError(asApi(await v1("GET", `emails/${A}/owner`, owner)), "tooManyFailures");
    // The owner's browser still signs in.
    const during = await signIn(owner, "192.0.2.10", device);
    expect(during.status, during.text).toBe(200);
    // A forged or another account's device cookie does not help.
    const forged = device.slice(0, -2) + (device.endsWith("AA") ? "BB" : "AA");
    expectErrorBody((await signIn(owner, "192.0.2.10", forged)).json, "tooManyFailures");
    const kimDevice = deviceOf(await signIn({ email: `kim@${A}`, password: "Kim-pass-3" }));
    expectErrorBody((await signIn(owner, "192.0.2.10", kimDevice)).json, "tooManyFailures");
    // Stolen by a guesser, the device cookie is locked by its own failures, and locks only itself.
    for (let i = 0; i < 5; i++)
      expect((await signIn({ ...owner, password: `Guess-d${i}` }, "192.0.2.10", device)).status).toBe(403);
    expectErrorBody((await signIn(owner, "192.0.2.10", device)).json, "tooManyFailures");
    const other = deviceOf(during);
    expect((await signIn(owner, "192.0.2.11", other)).status).toBe(200);
  });

  it("behind a trusted proxy the client is the rightmost untrusted X-Forwarded-For entry; untrusted peers' headers are ignored", async () => {
    const who = await createAccount(A, "who", "Who-pass-1");
    // Trusted peer (127.0.0.1): "1.2.3.4" was written by the client, "203.0.113.9" by the proxy.
    await raw({
      target: `/api/v1/emails/${A}/who`,
      headers: { authorization: basic(who), "x-forwarded-for": "1.2.3.4, 203.0.113.9, 127.0.0.1" },
    });
    const viaProxy = await api("GET", `emails/${A}/who`, { base: V1, auth: pm(A) });
    expect(viaProxy.json.last_auth_ip).toBe("203.0.113.9");
    // An untrusted peer's X-Forwarded-For is ignored.
    await raw({
      target: `/api/v1/emails/${A}/who`,
      localAddress: "127.0.52.1",
      headers: { authorization: basic(who), "x-forwarded-for": "203.0.113.10" },
    });
    expect((await api("GET", `emails/${A}/who`, { base: V1, auth: pm(A) })).json.last_auth_ip).toBe("127.0.52.1");
  });
});

describe("3. customers: pooled limits and the catchall boundary", () => {
  it("customer list and show name the customers; set-limits pools the limits of both domains", () => {
    const list = cli("customer", "list");
    expect(list).toMatch(new RegExp(`^1\\t${A}\\tper-domain limits\\t${A},${B}$`, "m"));
    expect(list).toMatch(new RegExp(`^2\\t${C}\\tper-domain limits\\t${C}$`, "m"));
    const shown: any = JSON.parse(cli("customer", "set-limits", "1", "--account-limit", "12", "--alias-limit", "2"));
    expect(shown).toMatchObject({
      id: 1,
      pooled: true,
      limits: { account_limit: 12, alias_limit: 2, capacity_limit: "per domain" },
    });
    expect(shown.domains.map((d: any) => d.name)).toEqual([A, B]);
    expect(JSON.parse(cli("customer", "show", "1")).usage.accounts).toBe(shown.usage.accounts);
  }, 180_000);

  it("every domain of the customer answers the pool's limits and usage, and creating beyond the pool is refused", async () => {
    const usage = async (d: string) => (await api("GET", `domains/${d}`, { base: V1, auth: pm(d) })).json;
    const [a, b] = [await usage(A), await usage(B)];
    expect(a.account_limit).toBe("12");
    expect(b.account_limit).toBe("12");
    expect(a.account_limit_usage).toBe(b.account_limit_usage);
    let used = Number(a.account_limit_usage);
    // Fill the pool from B (and A); A's own limit (1000) would allow far more.
    for (let i = 0; used < 12; i++, used++) await createAccount(i % 2 ? A : B, `pool${i}`);
    expect((await usage(A)).account_limit_usage).toBe("12");
    const refused = await api("POST", `emails/${A}/one-more`, {
      base: V1,
      auth: pm(A),
      body: { password: "Secret-123" },
    });
    expectError(refused, "accountLimitReached", "name");
    expect(refused.json.attributes).toEqual({ account_limit: 12 });
    expectError(
      await api("POST", `emails/${B}/one-more`, { base: V1, auth: pm(B), body: { password: "Secret-123" } }),
      "accountLimitReached",
      "name",
    );
    // Aliases are pooled too; another customer's domain is not touched by the pool.
    expectStatus(await api("POST", `aliases/${A}/al1`, { base: V1, auth: pm(A), body: { target: `kim@${A}` } }), 201);
    expectStatus(
      await api("POST", `aliases/${B}/al2`, { base: V1, auth: pm(B), body: { target: `postmaster@${B}` } }),
      201,
    );
    expectError(
      await api("POST", `aliases/${A}/al3`, { base: V1, auth: pm(A), body: { target: `kim@${A}` } }),
      "aliasLimitReached",
      "name",
    );
    expect((await usage(C)).account_limit).toBe("1000");
    await createAccount(C, "bob");
    // `none` returns a limit to per domain.
    cli("customer", "set-limits", "1", "--account-limit", "none");
    expect((await usage(B)).account_limit).toBe("1000");
  }, 180_000);

  it("catchall type 2 and 3: only the same customer's domains; anything else the same 500.362, existing or not", async () => {
    const put = (body: unknown) => api("PUT", `domains/${A}`, { base: V1, auth: pm(A), body });
    expectStatus(await put({ catchall_type: 2, catchall_address: `postmaster@${B}` }), 200);
    expectStatus(await put({ catchall_type: 3, catchall_address: B }), 200);
    const answers = [];
    for (const address of [`bob@${C}`, `nosuchuser@${C}`, "nosuchuser@nohost.test"]) {
      const res = await put({ catchall_type: 2, catchall_address: address });
      expectError(res, "invalidCatchallAddress", "catchall_address");
      answers.push(res.text);
    }
    expect(new Set(answers).size).toBe(1);
    const type3 = [];
    for (const address of [C, "nohost.test"]) {
      const res = await put({ catchall_type: 3, catchall_address: address });
      expectError(res, "invalidCatchallAddress", "catchall_address");
      type3.push(res.text);
    }
    expect(type3[0]).toBe(type3[1]);
  });
});

describe("4. sessions", () => {
  it("block then unblock, or expire then renew, leaves no session alive (without the session being used between)", async () => {
    const ala = await createAccount(C, "ala", "Ala-pass-1");
    const one = sessionOf(await signIn(ala));
    expectStatus(await api("PUT", `emails/${C}/ala`, { base: V1, auth: pm(C), body: { blocked: 1 } }), 200);
    expectStatus(await api("PUT", `emails/${C}/ala`, { base: V1, auth: pm(C), body: { blocked: 0 } }), 200);
    expect((await whoAmI(one)).status).toBe(401);
    const two = sessionOf(await signIn(ala));
    expectStatus(
      await api("PUT", `emails/${C}/ala`, { base: V1, auth: pm(C), body: { expiration_date: "2001-01-01" } }),
      200,
    );
    expectStatus(await api("PUT", `emails/${C}/ala`, { base: V1, auth: pm(C), body: { expiration_date: "" } }), 200);
    expect((await whoAmI(two)).status).toBe(401);
  });

  it("at most 20 live sessions per account: the 21st sign-in ends the oldest", async () => {
    const many = await createAccount(C, "many", "Many-pass-1");
    const sessions = [];
    for (let i = 0; i < 21; i++) sessions.push(sessionOf(await signIn(many)));
    expect((await whoAmI(sessions[0]!)).status).toBe(401);
    expect((await whoAmI(sessions[1]!)).status).toBe(200);
    expect((await whoAmI(sessions[20]!)).status).toBe(200);
  });

  it("__Host-mailadmin_session over HTTPS, the plain name over HTTP; several session cookies are refused", async () => {
    const https = { "x-forwarded-proto": "https" };
    const secure = await signIn(pm(C), "192.0.2.20", "", { ...https, origin: `https://127.0.0.1:${PORT}` });
    expect(secure.status).toBe(200);
    const header = secure.headers["set-cookie"]!.find((c) => c.startsWith("__Host-mailadmin_session="))!;
    expect(header).toMatch(/; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    const cookie = header.split(";")[0]!;
    expect((await raw({ target: "/api/panel/session", headers: { cookie, ...https } })).status).toBe(200);
    // The plain name over HTTPS is not a session (a neighbour site could have set it).
    const plain = cookie.replace("__Host-", "");
    expect((await raw({ target: "/api/panel/session", headers: { cookie: plain, ...https } })).status).toBe(401);
    const insecure = sessionOf(await signIn(pm(C)));
    expect((await whoAmI(insecure)).status).toBe(200);
    // Two cookies, even when one of them is live: refused.
    const two = await whoAmI(`${insecure}; mailadmin_session=planted`);
    expect(two.status).toBe(401);
    expect(two.json).toMatchObject({ code: panelErrors.noSession.code, message: panelErrors.noSession.message });
    expect((await whoAmI(`mailadmin_session=planted; ${insecure}`)).status).toBe(401);
    expect(
      (await raw({ target: "/api/panel/session", headers: { cookie: `${cookie}; ${plain}`, ...https } })).status,
    ).toBe(401);
    const page = await raw({ target: "/me", headers: { cookie: `${insecure}; ${insecure}` } });
    expect(page.status).toBe(307);
    expect(page.headers.location).toMatch(/^\/login/);
  });
});

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
