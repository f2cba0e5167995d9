/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- response bodies are untyped JSON */
// Sessions, lockouts and customers, and what a hostile client could do with them, over real HTTP against the production server. This file starts a
// server of its own, with TRUSTED_PROXIES=127.0.0.1 (so that a request from 127.0.0.1 with X-Forwarded-For stands
// for any client address) and SERVER_NAMES=127.0.0.1,localhost; requests from other loopback addresses
// (127.0.51.x, bound as the probe did) are untrusted peers. The probe table in docs/security.md names these tests.
import { describe, expect, it } from "vitest";
import { panelErrors } from "@/lib/errors/panel-errors";
import { api, basic, expectError, expectErrorBody, expectStatus } from "./client";
import { ownServer, pm } from "./own-server";
import { clientsOf } from "./proxied-clients";

const A = "c1a.example.com"; // customer 1
const B = "c1b.example.com"; // customer 1 too (domain add --customer c1a.example.com)
const C = "c2.example.com"; // customer 2, another customer
const { PORT, ORIGIN, V1, cli, createAccount } = ownServer({
  name: "h3",
  portOffset: 10,
  domains: { a: A, b: B, c: C },
  env: { WORKERS: "1", TRUSTED_PROXIES: "127.0.0.1", SERVER_NAMES: "127.0.0.1,localhost" },
});
const { raw, signIn, sessionOf, deviceOf, panel, whoAmI, v1, asApi } = clientsOf(PORT, ORIGIN);

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

  it("100 guesses sent at once, then the right password in the same burst: at most 5 are checked, the right one is refused", async () => {
    // Before, the lock was read when each request started and a failure counted after its check: all 100 were
    // checked, and the right password signed in.
    const target = await createAccount(A, "burst", "Burst-pass-1");
    const TOO_MANY = "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie później.";
    const answers = await Promise.all(
      [...Array.from({ length: 100 }, (_, i) => `Wrong-burst-${i}`), target.password].map((password, i) =>
        v1("GET", `emails/${A}/burst`, { ...target, password }, `127.0.52.${(i % 20) + 1}`, undefined, true),
      ),
    );
    const guesses = answers.slice(0, 100);
    for (const res of guesses) expect(res.status).toBe(403);
    expect(guesses.filter((res) => res.json.message !== TOO_MANY).length).toBeLessThanOrEqual(5);
    expectError(asApi(answers[100]!), "tooManyFailures");
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
    // The owner's browser still signs in, and may then change the password (which asks for the current one): the
    // lock from elsewhere does not keep the owner from the defence against it.
    const during = await signIn(owner, "192.0.2.10", device);
    expect(during.status, during.text).toBe(200);
    const change = await panel("PUT", "/api/panel/password", `${sessionOf(during)}; ${device}`, {
      current_password: owner.password,
      password: "Owner-pass-2",
      password_retype: "Owner-pass-2",
    });
    expect(change.status, change.text).toBe(200);
    const withoutDevice = await panel("PUT", "/api/panel/password", sessionOf(during), {
      current_password: "Owner-pass-2",
      password: owner.password,
      password_retype: owner.password,
    });
    expectErrorBody(withoutDevice.json, "tooManyFailures");
    owner.password = "Owner-pass-2";
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
    // Named by the operator; a name that would break the tab-separated list is refused and changes nothing.
    expect(cli("customer", "rename", "1", " Kowalski sp. z o.o. ")).toBe("1\tKowalski sp. z o.o.\n");
    expect(() => cli("customer", "rename", "1", "a\tb")).toThrow(/on one line, without tabs/);
    expect(cli("customer", "list")).toMatch(
      new RegExp(`^1\\tKowalski sp\\. z o\\.o\\.\\tpool accounts 12 .*\\t${A},${B}$`, "m"),
    );
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
