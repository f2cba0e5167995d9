/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON */
// Hardening round 4, the account side, over real HTTP against the production server: the second step of the panel's
// sign-in cannot be guessed (wrong codes counted per account across challenges and processes), cannot be turned on
// or off with a stolen session, and can be removed by the postmaster and the operator; page parameters, reserved
// names, SMS numbers, and the forwards of a deleted account. This file starts a server of its own (two worker
// processes over one database, a TOTP key); docs/security.md names these tests.
import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { panelErrors } from "@/lib/errors/panel-errors";
import {
  api,
  expectError,
  expectErrorBody,
  expectStatus,
  rawRequest,
  sha1Hex,
  type Creds,
  type RawResponse,
} from "./client";
import { DOMAINS, PM_PASSWORD } from "./fixtures";
import { ownServer, pm } from "./own-server";

const A = "h4a.example.com"; // customer 1
const B = "h4b.example.com"; // customer 1 too
const C = "h4c.example.com"; // another customer
const { ORIGIN, V1, cli, createAccount } = ownServer({
  name: "h4",
  portOffset: 20,
  domains: { a: A, b: B, c: C },
  // Two processes: a count kept in one process's memory would not hold.
  env: { WORKERS: "2", TOTP_ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0" },
});

type Raw = RawResponse;
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const raw = (opts: {
  method?: string;
  target: string;
  headers?: Record<string, string>;
  body?: unknown;
  base?: string;
}): Promise<Raw> =>
  rawRequest({
    ...opts,
    origin: opts.base ?? ORIGIN,
    agent,
    headers: { origin: new URL(opts.base ?? ORIGIN).origin, ...opts.headers },
  });
const cookiesOf = (r: Raw) => (r.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);
const cookieOf = (r: Raw, name: string) => cookiesOf(r).find((c) => c.startsWith(`${name}=`));
const signIn = (c: Creds, base?: string) =>
  raw({ method: "POST", target: "/api/panel/session", body: { email: c.email, digest: sha1Hex(c.password) }, base });
const panel = (method: string, target: string, cookie: string, body?: unknown, base?: string) =>
  raw({ method, target, headers: { cookie }, body, base });
/** A signed-in panel session (no second step on the account). */
async function session(c: Creds, base?: string): Promise<string> {
  const res = await signIn(c, base);
  expect(res.status, res.text).toBe(200);
  expect(res.json.second_step).toBeUndefined();
  return cookieOf(res, "mailadmin_session")!;
}

/** The phone's side: RFC 6238 at a step (SHA-1, 30 s, 6 digits) from the base32 key the set-up shows. */
function code(base32: string, step: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of base32) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", key).update(msg).digest();
  const o = mac[19]! & 0xf;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}
const stepNow = () => Math.floor(Date.now() / 30_000);

/** Turns the second step on for `c` through /me's endpoints; answers the key and the step its confirmation used. */
async function enableTotp(c: Creds): Promise<{ secret: string; step: number }> {
  const s = await session(c);
  const started = await panel("POST", "/api/panel/two-factor", s, { current_password: c.password });
  expect(started.status, started.text).toBe(200);
  const step = stepNow();
  const confirmed = await panel("PUT", "/api/panel/two-factor", s, { code: code(started.json.secret, step) });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret: started.json.secret as string, step };
}

/** The password step: answers the challenge cookie (the account has a second step). */
async function challenge(c: Creds): Promise<string> {
  const res = await signIn(c);
  expect(res.status, res.text).toBe(200);
  expect(res.json.second_step).toBe("code");
  return cookieOf(res, "mail_panel_2fa")!;
}
const secondStep = (cookie: string, typed: string) =>
  panel("POST", "/api/panel/session/second-step", cookie, { code: typed });

afterAll(() => agent.destroy());

describe("1. the second step cannot be guessed", () => {
  it("2,000 wrong codes over 400 challenges (a correct password each time) do not sign in, nor does the right code among them", async () => {
    const victim = await createAccount(A, "victim", "Victim-pass-1");
    const { secret, step } = await enableTotp(victim);
    const outcomes = { locked: 0, wrong: 0, signedIn: 0, ended: 0 };
    // Past the first lock every guess is refused unread by the same check: the lock is reached at once, and 2,000
    // guesses show it holding across hundreds of challenges as well as more would.
    const attempts = 2_000;
    let attempt = 0;
    // Four clients at once, as the probe ran them; every 500th attempt sends the right code of the moment.
    const client = async () => {
      while (attempt < attempts) {
        const cookie = await challenge(victim);
        for (let i = 0; i < 5 && attempt < attempts; i++) {
          const n = attempt++;
          const right = n % 500 === 499;
          const typed = right
            ? code(secret, Math.max(stepNow(), step + 1))
            : String((n * 7919) % 1_000_000).padStart(6, "0");
          if (!right && [stepNow() - 1, stepNow(), stepNow() + 1].some((s) => code(secret, s) === typed)) continue;
          const res = await secondStep(cookie, typed);
          if (res.status === 200) outcomes.signedIn++;
          else if (res.json?.attributes?.retry_after > 0) outcomes.locked++;
          // A challenge another client's lock or the clock ended: refused without reading the code.
          else if (res.json?.code === panelErrors.twoFactorNoChallenge.code && res.status === 401) outcomes.ended++;
          else {
            expect(res.json.code, res.text).toBe(panelErrors.twoFactorBadCode.code);
            outcomes.wrong++;
          }
        }
      }
    };
    const started = Date.now();
    await Promise.all([client(), client(), client(), client()]);
    expect(outcomes.signedIn).toBe(0);
    // One lock's worth of guesses (5, however many are in flight: each is counted before it is read) per lock
    // period (AUTH_LOCKOUT_SECONDS=60 on the test servers) was checked; the rest were refused unread.
    const periods = 1 + Math.floor((Date.now() - started) / 60_000);
    expect(outcomes.wrong).toBeLessThanOrEqual(5 * periods);
    expect(outcomes.locked + outcomes.ended).toBeGreaterThan(attempts * 0.99);
    const locked = await secondStep(await challenge(victim), code(secret, stepNow()));
    expect(locked.status).toBe(403);
    expectErrorBody(locked.json, "tooManyFailures");
    expect(locked.json.attributes.retry_after).toBeGreaterThan(0);

    // The postmaster sees the lock, and removing the second step lifts it (audited): the password alone signs in.
    const admin = await session(pm(A));
    const seen = await panel("GET", `/api/panel/two-factor/victim`, admin);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.json).toMatchObject({ two_factor: true, password_locked_for: 0 });
    expect(seen.json.code_locked_for).toBeGreaterThan(0);
    expect((await panel("DELETE", `/api/panel/two-factor/victim`, admin)).status).toBe(204);
    expect((await panel("GET", `/api/panel/two-factor/victim`, admin)).json).toEqual({
      two_factor: false,
      password_locked_for: 0,
      code_locked_for: 0,
    });
    await session(victim);
    const log = cli("audit", "list", "--domain", A, "--search", "victim");
    // The change's JSON as stored: PostgreSQL's jsonb orders the keys its own way.
    const removal = log.split("\n").find((l) => /\tpanel\tdelete account_security\tvictim\t/.test(l));
    expect(JSON.parse(removal!.split("\t").at(-1)!)).toEqual({ totp: { old: "on", new: "off" } });
  }, 600_000);

  it("a code used once answers 'already used', not 'wrong code'; the next one signs in", async () => {
    const owner = await createAccount(A, "reuse", "Reuse-pass-1");
    const { secret, step } = await enableTotp(owner);
    // The confirmation's code again, then the next step's code twice.
    const again = await secondStep(await challenge(owner), code(secret, step));
    expect(again.status).toBe(403);
    expect(again.json).toMatchObject({
      code: panelErrors.twoFactorCodeUsed.code,
      message: panelErrors.twoFactorCodeUsed.message,
      source: "code",
    });
    const next = code(secret, step + 1);
    expect((await secondStep(await challenge(owner), next)).status).toBe(200);
    const twice = await secondStep(await challenge(owner), next);
    expect(twice.json.message).toBe("Ten kod został już użyty. Poczekaj na następny kod w aplikacji.");
  });
});

describe("2. turning the second step on or off needs the password, and ends the other sessions", () => {
  it("a stolen session cannot turn it on; the owner can, and the other sessions end; off again needs password and code", async () => {
    const owner = await createAccount(A, "stolen", "Stolen-pass-1");
    const mine = await session(owner);
    const thief = await session(owner);
    for (const body of [{}, { current_password: "" }, { current_password: "Wrong-pass-1" }]) {
      const res = await panel("POST", "/api/panel/two-factor", thief, body);
      expect(res.status, res.text).toBe(500);
      expect(res.json).toMatchObject({ code: panelErrors.currentPasswordWrong.code, source: "current_password" });
    }
    expect((await panel("GET", "/api/panel/two-factor", thief)).json).toMatchObject({
      enabled: false,
      configured: true,
    });
    const started = await panel("POST", "/api/panel/two-factor", mine, { current_password: owner.password });
    expect(started.status).toBe(200);
    // A wrong first code: the set-up's own message (no recovery codes to offer yet), on the code field.
    const wrongFirst = await panel("PUT", "/api/panel/two-factor", mine, {
      code: [stepNow() - 1, stepNow(), stepNow() + 1].some((s) => code(started.json.secret, s) === "999999")
        ? "999998"
        : "999999",
    });
    expect(wrongFirst.json).toMatchObject({
      code: panelErrors.twoFactorSetupBadCode.code,
      message: panelErrors.twoFactorSetupBadCode.message,
      source: "code",
    });
    const step = stepNow();
    const confirmed = await panel("PUT", "/api/panel/two-factor", mine, { code: code(started.json.secret, step) });
    expect(confirmed.status).toBe(200);
    expect((await panel("GET", "/api/panel/session", thief)).status).toBe(401);
    expect((await panel("GET", "/api/panel/session", mine)).status).toBe(200);

    // Off: the password and a code; without the password, or with a wrong code, nothing changes.
    const other = await secondStep(await challenge(owner), confirmed.json.recovery_codes[0]);
    expect(other.status).toBe(200);
    const otherSession = cookieOf(other, "mailadmin_session")!;
    const noPassword = await panel("DELETE", "/api/panel/two-factor", mine, {
      code: code(started.json.secret, stepNow() + 1),
    });
    expect(noPassword.json).toMatchObject({ code: panelErrors.currentPasswordWrong.code, source: "current_password" });
    const wrongCode = await panel("DELETE", "/api/panel/two-factor", mine, {
      current_password: owner.password,
      code: "999999" === code(started.json.secret, stepNow()) ? "999998" : "999999",
    });
    expect(wrongCode.json).toMatchObject({ code: panelErrors.twoFactorBadCode.code });
    expect((await panel("GET", "/api/panel/two-factor", mine)).json.enabled).toBe(true);
    // The next step's code was never used (the confirmation used this one).
    const off = await panel("DELETE", "/api/panel/two-factor", mine, {
      current_password: owner.password,
      code: code(started.json.secret, stepNow() + 1),
    });
    expect(off.status, off.text).toBe(204);
    expect((await panel("GET", "/api/panel/session", otherSession)).status).toBe(401);
    expect((await panel("GET", "/api/panel/two-factor", mine)).json.enabled).toBe(false);
  });

  it("the operator removes an account's second step with `account reset-2fa`; the postmaster cannot remove his own from the account page", async () => {
    const owner = await createAccount(C, "lostphone", "Lost-phone-1");
    await enableTotp(owner);
    await challenge(owner);
    expect(cli("account", "reset-2fa", owner.email)).toContain("two-step sign-in removed");
    await session(owner);
    expect(cli("audit", "list", "--domain", C, "--search", "lostphone")).toMatch(
      /cli\tdelete account_security\tlostphone/,
    );
    const admin = await session(pm(C));
    expectErrorBody((await panel("DELETE", "/api/panel/two-factor/postmaster", admin)).json, "forbidden");
    // Another domain's account is not the postmaster's to see or change.
    expectErrorBody((await panel("GET", "/api/panel/two-factor/victim", admin)).json, "recordNotFound");
    // A name no account may have is refused for its syntax: with a NUL it reached PostgreSQL's query (500.100).
    for (const method of ["GET", "DELETE"])
      expectErrorBody((await panel(method, "/api/panel/two-factor/vic%00tim", admin)).json, "invalidAccountName");
    const user = await session(owner);
    expectErrorBody((await panel("GET", "/api/panel/two-factor/postmaster", user)).json, "forbidden");
  });

  it("the operator sets a forgotten password with `account set-password`: the new one signs in, the old one and the sessions end", async () => {
    const owner = await createAccount(C, "forgot", "Forgot-pass-1");
    const before = await session(owner);
    const generated = /: password set to (\S+)\n$/.exec(cli("account", "set-password", owner.email))?.[1];
    expect(generated).toMatch(/^\S{6,15}$/);
    expect((await panel("GET", "/api/panel/session", before)).status).toBe(401);
    expect((await signIn(owner)).status).toBe(403);
    await session({ ...owner, password: generated! });
    // A given password obeys the account password rule, and nothing changes when it does not.
    expect(() => cli("account", "set-password", owner.email, "--password", "short")).toThrow(/500\.304/);
    await session({ ...owner, password: generated! });
    expect(cli("audit", "list", "--domain", C, "--search", "forgot")).toMatch(
      /cli\tupdate account\tforgot\t.*"password"/,
    );
  });

  it("the operator blocks an account with `account block` and lifts it with `account unblock`: signed out and refused meanwhile, the postmaster never", async () => {
    const owner = await createAccount(C, "abused", "Abused-pass-1");
    const before = await session(owner);
    expect(cli("account", "block", owner.email)).toBe(`${owner.email}: blocked.\n`);
    expect(cli("account", "block", owner.email)).toBe(`${owner.email}: already blocked.\n`);
    expectError(await api("GET", `emails/${C}/abused`, { base: V1, auth: owner }), "badCredentials");
    expect((await panel("GET", "/api/panel/session", before)).status).toBe(401);
    expect((await signIn(owner)).status).toBe(403);
    expect((await api("GET", `emails/${C}/abused`, { base: V1, auth: pm(C) })).json.blocked).toBe(1);
    expect(() => cli("account", "block", `postmaster@${C}`)).toThrow(/403\.2/);
    // An alias's address names the account it leads to; an address without its domain is wrong usage (exit 2).
    expectStatus(
      await api("POST", `aliases/${C}/abuse-desk`, { base: V1, auth: pm(C), body: { target: owner.email } }),
      201,
    );
    expect(() => cli("account", "block", `abuse-desk@${C}`)).toThrow(
      `abuse-desk@${C} is an alias of ${owner.email}, not an account`,
    );
    const usage = (() => {
      try {
        return cli("account", "block", "abused@");
      } catch (err) {
        return err as { status: number; stderr: string };
      }
    })();
    expect(usage).toMatchObject({
      status: 2,
      stderr: "error: account block: abused@ is not an address (name@domain)\n",
    });
    expect(cli("account", "unblock", owner.email)).toBe(`${owner.email}: unblocked.\n`);
    expect(cli("account", "unblock", owner.email)).toBe(`${owner.email}: not blocked.\n`);
    await session(owner);
    expect((await api("GET", `emails/${C}/abused`, { base: V1, auth: owner })).status).toBe(200);
    const audit = cli("audit", "list", "--domain", C, "--search", "abused");
    expect(audit.match(/cli\tupdate account\tabused\t.*"blocked"/g)).toHaveLength(2);
  });

  it("the operator deletes an account with `account remove --yes`: gone from the API with its alias, audited; the postmaster never", async () => {
    const owner = await createAccount(C, "leaving", "Leaving-pass-1");
    expectStatus(
      await api("POST", `aliases/${C}/leaving-alias`, { base: V1, auth: pm(C), body: { target: owner.email } }),
      201,
    );
    const refused = (() => {
      try {
        return cli("account", "remove", owner.email);
      } catch (err) {
        return err as { status: number; stderr: string };
      }
    })();
    expect(refused).toMatchObject({
      status: 2,
      stderr: `error: account remove: refusing to remove ${owner.email} without --yes\n`,
    });
    expect((await api("GET", `emails/${C}/leaving`, { base: V1, auth: pm(C) })).status).toBe(200);
    expect(cli("account", "remove", owner.email, "--yes")).toBe(
      `${owner.email}: removed; its mailbox goes from the mail host within seconds.\n`,
    );
    expectError(await api("GET", `emails/${C}/leaving`, { base: V1, auth: pm(C) }), "recordNotFound");
    expectError(await api("GET", `aliases/${C}/leaving-alias`, { base: V1, auth: pm(C) }), "recordNotFound");
    expect(() => cli("account", "remove", owner.email, "--yes")).toThrow(/404\.2/);
    expect(() => cli("account", "remove", `postmaster@${C}`, "--yes")).toThrow(/403\.2/);
    expect(cli("audit", "list", "--domain", C, "--search", "leaving")).toMatch(/cli\tdelete account\tleaving\t/);
  });

  it("an account brought by `account import` with its old hash: /api/v1 refuses it until the panel's first sign-in with the password beside the digest", async () => {
    // doveadm pw -s SHA512-CRYPT -p Old-pass1, as the old mail server stored it.
    const oldHash =
      "{SHA512-CRYPT}$6$nPVzHVCdX2mDiEC1$aOHoQDFL2CMUqWtCIcFsci9g69WkHSE4JHV/ciGPellpDeRgwXiOKIC0U31M9cIEeSsR0pjNF8/pLEJLn2Xms.";
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-h4-import-")), "accounts.jsonl");
    fs.writeFileSync(
      file,
      `${JSON.stringify({ email: `moved@${C}`, password_hash: oldHash, description: "Moved" })}\n`,
    );
    expect(cli("account", "import", file)).toBe(`created\tmoved@${C}\n1 created, 0 already there, 0 failed\n`);
    const moved = { email: `moved@${C}`, password: "Old-pass1" };
    // The right password's digest is no use to Basic yet (no API hash): answered as a wrong password.
    expectError(await api("GET", `emails/${C}/moved`, { base: V1, auth: moved }), "badCredentials");
    // Nor to a sign-in that sends the digest alone.
    expect((await signIn(moved)).status).toBe(403);
    // A password near the body limit with its own digest is refused at once, not hashed (SHA-crypt's first step
    // grows with the square of its length: the server stalled for hours), and the server goes on answering.
    const huge = "x".repeat(900_000);
    const started = Date.now();
    const refused = await raw({
      method: "POST",
      target: "/api/panel/session",
      body: { email: moved.email, digest: sha1Hex(huge), password: huge },
    });
    expect(refused.status, refused.text).toBe(403);
    expect(Date.now() - started).toBeLessThan(5000);
    // The login form's body (app/(auth)/login/login-form.tsx): the password checked against the old hash, the
    // account's own hashes made from it; the session works and so does Basic from then on.
    const res = await raw({
      method: "POST",
      target: "/api/panel/session",
      body: { email: moved.email, digest: sha1Hex(moved.password), password: moved.password },
    });
    expect(res.status, res.text).toBe(200);
    expect((await panel("GET", "/api/panel/session", cookieOf(res, "mailadmin_session")!)).status).toBe(200);
    const record = await api("GET", `emails/${C}/moved`, { base: V1, auth: moved });
    expectStatus(record, 200);
    expect(record.json.description).toBe("Moved");
  });

  it("a server without TOTP_ENCRYPTION_KEY says so (configured: false) and answers its JSON error, never an HTML 500", async () => {
    const main = inject("mainBase").replace(/\/api\/v1$/, "");
    const domain = DOMAINS.main[0]!.name;
    const s = await session({ email: `postmaster@${domain}`, password: PM_PASSWORD }, main);
    expect((await panel("GET", "/api/panel/two-factor", s, undefined, main)).json).toMatchObject({
      enabled: false,
      configured: false,
    });
    const res = await panel("POST", "/api/panel/two-factor", s, { current_password: PM_PASSWORD }, main);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({
      code: panelErrors.twoFactorNotConfigured.code,
      message: panelErrors.twoFactorNotConfigured.message,
    });
  });
});

describe("3. page parameters, reserved names, SMS numbers", () => {
  it("every page parameter: the audit page clamps any value, the list endpoints refuse it with 500.130", async () => {
    const admin = await session(pm(A));
    for (const page of ["99999999999999999999", "1e308", "-1", "1.5", "abc", "0x10", "%00"]) {
      const res = await raw({ target: `/audit?page=${page}`, headers: { cookie: admin } });
      expect(res.status, `/audit?page=${page}`).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      for (const list of ["emails", "aliases", "mailinglists"]) {
        expectError(await api("GET", `${list}/${A}?page=${page}`, { base: V1, auth: pm(A) }), "invalidQuery", "page");
        const viaPanel = await panel("GET", `/api/panel/v1/${list}/${A}?page=${page}`, admin);
        expect(viaPanel.status).toBe(500);
        expectErrorBody(viaPanel.json, "invalidQuery");
      }
      const accounts = await raw({ target: `/accounts?page=${page}`, headers: { cookie: admin } });
      expect(accounts.status, `/accounts?page=${page}`).toBe(200);
    }
    for (const page of ["0", "999999999"])
      expectStatus(await api("GET", `emails/${A}?page=${page}`, { base: V1, auth: pm(A) }), 200);
  });

  it("mailer-daemon in any spelling is the administrator's to give, like postmaster", async () => {
    const eve = await createAccount(C, "eve4", "Eve-pass-14", { alias_limit: 5 });
    for (const local of ["mailer-daemon", "MAILER-DAEMON", "mailer_daemon", "Mailer.Daemon"]) {
      const res = await api("PUT", `emails/${C}/eve4`, { base: V1, auth: eve, body: { aliases: [`${local}@${C}`] } });
      expectError(res, "invalidAliases", "aliases");
      expect(res.json.attributes).toMatchObject({ reserved: true });
    }
    expectStatus(
      await api("PUT", `emails/${C}/eve4`, { base: V1, auth: pm(C), body: { aliases: [`mailer-daemon@${C}`] } }),
      200,
    );
  });

  it("SMS numbers with spaces, dashes and +48 are accepted and stored without them", async () => {
    await createAccount(C, "sms4");
    const cases: [string, string][] = [
      ["+48 530 111 222", "+48530111222"],
      ["+48-530-111-222", "+48530111222"],
      ["530 111 222", "530111222"],
      [" +48 (530) 111 222 ", ""],
    ];
    for (const [typed, stored] of cases) {
      const res = await api("PUT", `emails/${C}/sms4`, { base: V1, auth: pm(C), body: { sms_phone_number_1: typed } });
      if (stored === "") {
        expectError(res, "invalidSmsText", "sms_phone_number_1");
        continue;
      }
      expectStatus(res, 200);
      expect(res.json.sms_phone_number_1).toBe(stored);
    }
    expectError(
      await api("PUT", `emails/${C}/sms4`, { base: V1, auth: pm(C), body: { sms_phone_number_2: "+48 53" } }),
      "invalidSmsText",
      "sms_phone_number_2",
    );
  });
});

describe("4. deleting an account removes the forwards to it", () => {
  it("from the same customer's accounts (audited), never from another customer's", async () => {
    const gone = await createAccount(A, "gone4");
    await createAccount(A, "fwa", "Secret-123", { forwards: [gone.email, "keep@elsewhere.example"] });
    await createAccount(B, "fwb", "Secret-123", { forwards: [gone.email], keep_mail: 0 });
    await createAccount(C, "fwc", "Secret-123", { forwards: [gone.email] });
    const admin = await session(pm(A));
    const listed = await panel("GET", `/api/panel/forwarders/${A}/gone4`, admin);
    expect(listed.json).toEqual([`fwa@${A}`, `fwb@${B}`]);
    expectStatus(await api("DELETE", `emails/${A}/gone4`, { base: V1, auth: pm(A) }), 204);
    expect((await api("GET", `emails/${A}/fwa`, { base: V1, auth: pm(A) })).json.forwards).toEqual([
      "keep@elsewhere.example",
    ]);
    expect((await api("GET", `emails/${B}/fwb`, { base: V1, auth: pm(B) })).json.forwards).toEqual([]);
    expect((await api("GET", `emails/${C}/fwc`, { base: V1, auth: pm(C) })).json.forwards).toEqual([gone.email]);
    expect(cli("audit", "list", "--domain", B, "--search", "fwb")).toMatch(/update account\tfwb\t\{"forwards":/);
  });
});
