/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON */
// Authentication (specification "Authentication", contract §4): the Basic header with the SHA-1 digest, the
// refusals, and the lockout of an account after repeated failures, over every client address (the servers run
// with AUTH_MAX_FAILURES=10, AUTH_LOCKOUT_SECONDS=60; sessions-lockouts-customers.test.ts rotates addresses and uses devices).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, basic, createAccount, expectError, expectStatus, postmaster, sha1Hex, type Creds } from "./client";

const D = "sec.example.com";
const admin = postmaster(D);
const path = `domains/${D}`;
let jan: Creds;

beforeAll(async () => {
  jan = await createAccount(D, "jan", { password: "Jan-pass1" });
  await createAccount(D, "blocked", { password: "Blocked-1", blocked: 1 });
  await createAccount(D, "expired", { password: "Expired-1", expiration_date: "2001-01-01" });
  await createAccount(D, "victim", { password: "Victim-123" });
  await createAccount(D, "other", { password: "Other-123" });
});

const raw = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("credentials", () => {
  it("accepts base64(email:sha1hex(password)), the email case-insensitively", async () => {
    expectStatus(await api("GET", path, { auth: admin }), 200);
    expectStatus(
      await api("GET", path, { auth: raw(`POSTMASTER@${D.toUpperCase()}:${sha1Hex(admin.password)}`) }),
      200,
    );
    expectStatus(await api("GET", path, { auth: raw(`${admin.email}:${sha1Hex(admin.password).toUpperCase()}`) }), 200);
  });

  it.each([
    ["no header", undefined],
    ["another scheme", "Bearer abc"],
    ["Basic without value", "Basic"],
    ["not base64 of email:digest", raw("no-colon-here")],
    ["empty email", raw(`:${sha1Hex("x")}`)],
  ])("401.1 for %s, with the Basic challenge (RFC 9110 11.6.1)", async (_what, header) => {
    const res = await api("GET", path, { auth: header ?? null });
    expectError(res, "missingCredentials");
    // Clients that send credentials only when challenged (.NET's HttpClient, Java's Authenticator) need it.
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="mail-admin", charset="UTF-8"');
  });

  it.each([
    ["the clear password instead of its digest", () => raw(`${admin.email}:${admin.password}`)],
    ["a wrong password", () => basic({ ...admin, password: "Wrong-123" })],
    ["an unknown account", () => basic({ email: `ghost@${D}`, password: "Ghost-123" })],
    ["a blocked account", () => basic({ email: `blocked@${D}`, password: "Blocked-1" })],
    ["an expired account", () => basic({ email: `expired@${D}`, password: "Expired-1" })],
  ])("403.1 for %s", async (_what, header) => {
    expectError(await api("GET", `emails/${D}/jan`, { auth: header() }), "badCredentials");
  });

  // PostgreSQL's text cannot hold U+0000, and its index of the login throttle takes at most 2704 bytes a row: such an
  // address reached the throttle's query and answered 500.100 (with a stack trace in the log) before any credential
  // was checked, on /api/v1 and on the panel's sign-in alike.
  it("an address with a NUL byte, or too long for any account, is an unknown address: 403.1, on /api/v1 and the panel's sign-in", async () => {
    const digest = sha1Hex(admin.password);
    // Random letters: PostgreSQL compresses a repeated one below the index's limit.
    const long = Array.from(crypto.getRandomValues(new Uint8Array(4000)), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]);
    for (const address of [`postmaster\u0000@${D}`, `${admin.email}\u0000`, `\u0000`, `${long.join("")}@${D}`]) {
      expectError(await api("GET", path, { auth: raw(`${address}:${digest}`) }), "badCredentials");
      const origin = new URL(inject("mainBase")).origin;
      const res = await fetch(`${origin}/api/panel/session`, {
        method: "POST",
        headers: { "content-type": "application/json", origin },
        body: JSON.stringify({ email: address, digest }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("403.1");
    }
    // The refusals counted nothing against the real account.
    expectStatus(await api("GET", path, { auth: admin }), 200);
  });

  it("records the date and address of the last login", async () => {
    expectStatus(await api("GET", `emails/${D}/jan`, { auth: jan }), 200);
    const res = await api("GET", `emails/${D}/jan`, { auth: admin });
    expect(res.json.last_auth_date).toBe(new Date().toISOString().slice(0, 10));
    expect(res.json.last_auth_ip).toBe("127.0.0.1");
  });
});

describe("login throttling", () => {
  const victim = { email: `victim@${D}`, password: "Victim-123" };
  const wrong = { ...victim, password: "Guess-0001" };

  it("locks the account after 10 failures; even the right password is refused meanwhile", async () => {
    for (let i = 0; i < 9; i++) expectError(await api("GET", `emails/${D}/victim`, { auth: wrong }), "badCredentials");
    // The 10th failure is still an ordinary refusal, and sets the lock.
    expectError(await api("GET", `emails/${D}/victim`, { auth: wrong }), "badCredentials");
    const locked = await api("GET", `emails/${D}/victim`, { auth: victim });
    expectError(locked, "tooManyFailures");
    expect(locked.json.attributes.retry_after).toBeGreaterThan(0);
    expect(locked.json.attributes.retry_after).toBeLessThanOrEqual(60);
    expectError(await api("GET", `emails/${D}/victim`, { auth: wrong }), "tooManyFailures");
  });

  it("does not lock other accounts from the same address", async () => {
    expectStatus(await api("GET", `emails/${D}/other`, { auth: { email: `other@${D}`, password: "Other-123" } }), 200);
    expectStatus(await api("GET", path, { auth: admin }), 200);
  });

  it("the administrator still sees and manages the locked account", async () => {
    const res = await api("GET", `emails/${D}/victim`, { auth: admin });
    expectStatus(res, 200);
  });

  it("a success before the limit resets the count", async () => {
    const other = { email: `other@${D}`, password: "Other-123" };
    for (let i = 0; i < 9; i++)
      expectError(
        await api("GET", `emails/${D}/other`, { auth: { ...other, password: "Nope-1234" } }),
        "badCredentials",
      );
    expectStatus(await api("GET", `emails/${D}/other`, { auth: other }), 200);
    for (let i = 0; i < 9; i++)
      expectError(
        await api("GET", `emails/${D}/other`, { auth: { ...other, password: "Nope-1234" } }),
        "badCredentials",
      );
    expectStatus(await api("GET", `emails/${D}/other`, { auth: other }), 200);
  });
});
