// Panel sessions and the login throttle, on a real SQLite file opened twice (two connections stand for two server
// processes): what the table keeps, idle and absolute expiry, sign-out, password change and block, the purge of
// `db optimize`, and the cookie's attributes.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { addDomain } from "@/lib/server/resources/new-domain";
import type { Principal } from "./auth";
import { failureGate } from "./login-throttle";
import {
  ABSOLUTE_TIMEOUT_MS,
  clearedSessionCookie,
  createSession,
  destroySession,
  endSessions,
  IDLE_TIMEOUT_MS,
  purgeExpiredLoginState,
  parseSessionCookies,
  readSessionId,
  resolveSession,
  sessionCookie,
  sessionInfo,
} from "./session";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
let other: Db;
let principal: Principal;
const IP = "192.0.2.1";

beforeAll(async () => {
  // Read once per process (lib/server/env.ts): set before anything reads them.
  Object.assign(process.env, { SCRYPT_COST: "1024", AUTH_MAX_FAILURES: "3", AUTH_ADDRESS_MAX_FAILURES: "5" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "session-"));
  db = openDatabase(path.join(dir, "t.db"));
  other = openDatabase(path.join(dir, "t.db"));
  await addDomain(db, "example.com", "S3cret!pass", {});
  const account = db.$client.prepare("SELECT * FROM accounts WHERE email = 'postmaster@example.com'").get();
  principal = { account, domain: "example.com", isPostmaster: true } as unknown as Principal;
});

afterAll(() => {
  db.$client.close();
  other.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rows = (conn: Db) => conn.$client.prepare("SELECT * FROM sessions").all() as Record<string, unknown>[];

describe("panel sessions", () => {
  it("give a random 256-bit id and keep only its SHA-256, with nothing that authenticates", async () => {
    const a = await createSession(db, principal, IP);
    const b = await createSession(db, principal, IP);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(a).not.toBe(b);
    const row = rows(db).find((r) => r.id_hash === createHash("sha256").update(a).digest("hex"));
    expect(row).toBeDefined();
    expect(Object.keys(row!).sort()).toEqual(["account_id", "client_ip", "created_at", "id_hash", "last_seen_at"]);
    expect(JSON.stringify(rows(db))).not.toContain(a);
    expect(sessionInfo(principal)).toEqual({
      email: "postmaster@example.com",
      domain: "example.com",
      isPostmaster: true,
    });
    await endSessions(db, principal.account.id);
  });

  it("are seen by another connection, and end there when signed out here", async () => {
    const id = await createSession(db, principal, IP);
    expect((await resolveSession(other, id, IP))?.principal.account.email).toBe("postmaster@example.com");
    await destroySession(db, id);
    expect(await resolveSession(other, id, IP)).toBeNull();
  });

  it("expire after 30 idle minutes, each use restarting the idle timer; the row goes when met", async () => {
    const t0 = Date.now();
    const id = await createSession(db, principal, IP, t0);
    expect(IDLE_TIMEOUT_MS).toBe(30 * 60 * 1000);
    expect(await resolveSession(db, id, IP, t0 + IDLE_TIMEOUT_MS - 1)).not.toBeNull();
    expect(await resolveSession(db, id, IP, t0 + 2 * IDLE_TIMEOUT_MS - 2)).not.toBeNull();
    expect(await resolveSession(db, id, IP, t0 + 3 * IDLE_TIMEOUT_MS)).toBeNull();
    expect(rows(db)).toHaveLength(0);
    // Gone for good, even if asked about at an earlier time.
    expect(await resolveSession(db, id, IP, t0)).toBeNull();
  });

  it("expire at the absolute limit however active they are", async () => {
    const t0 = Date.now();
    const id = await createSession(db, principal, IP, t0);
    for (let t = t0; t < t0 + ABSOLUTE_TIMEOUT_MS; t += IDLE_TIMEOUT_MS / 2) {
      expect(await resolveSession(db, id, IP, t)).not.toBeNull();
    }
    expect(await resolveSession(db, id, IP, t0 + ABSOLUTE_TIMEOUT_MS + 1)).toBeNull();
    expect(await resolveSession(db, undefined, IP)).toBeNull();
    expect(await resolveSession(db, "unknown", IP)).toBeNull();
  });

  it("end all but the keeper when the password changes", async () => {
    const keep = await createSession(db, principal, IP);
    const drop = await createSession(db, principal, IP);
    const kept = (await resolveSession(db, keep, IP))!;
    await endSessions(other, principal.account.id, kept.idHash);
    expect(await resolveSession(db, keep, IP)).not.toBeNull();
    expect(await resolveSession(db, drop, IP)).toBeNull();
    await endSessions(db, principal.account.id);
  });

  it("end for several accounts at once (a bulk change), all but the keeper, and no other account's", async () => {
    await createAccount(db, await getDomainOrThrow(db, "example.com"), "bulk1", { password: "S3cret!pass" });
    await createAccount(db, await getDomainOrThrow(db, "example.com"), "bulk2", { password: "S3cret!pass" });
    const of = (name: string) => {
      const account = db.$client.prepare("SELECT * FROM accounts WHERE email = ?").get(`${name}@example.com`);
      return { account, domain: "example.com", isPostmaster: false } as unknown as Principal;
    };
    const [one, two] = [of("bulk1"), of("bulk2")];
    const ids = [await createSession(db, one, IP), await createSession(db, two, IP), await createSession(db, two, IP)];
    const keep = (await resolveSession(db, ids[2], IP))!;
    const mine = await createSession(db, principal, IP);
    await endSessions(other, [one.account.id, two.account.id, one.account.id], keep.idHash);
    expect(await resolveSession(db, ids[0], IP)).toBeNull();
    expect(await resolveSession(db, ids[1], IP)).toBeNull();
    expect(await resolveSession(db, ids[2], IP)).not.toBeNull();
    expect(await resolveSession(db, mine, IP)).not.toBeNull();
    await endSessions(db, []);
    expect(await resolveSession(db, ids[2], IP)).not.toBeNull();
    await endSessions(db, [one.account.id, two.account.id, principal.account.id]);
    expect(rows(db)).toHaveLength(0);
  });

  it("end for a blocked account on every connection", async () => {
    const id = await createSession(db, principal, IP);
    other.$client.prepare("UPDATE accounts SET blocked = 1 WHERE id = ?").run(principal.account.id);
    expect(await resolveSession(db, id, IP)).toBeNull();
    expect(rows(db)).toHaveLength(0);
    other.$client.prepare("UPDATE accounts SET blocked = 0 WHERE id = ?").run(principal.account.id);
  });

  it("are purged by db optimize once expired, and live ones are kept", async () => {
    const old = Date.now() - ABSOLUTE_TIMEOUT_MS - 1;
    await createSession(db, principal, IP, old);
    const live = await createSession(db, principal, IP);
    expect((await purgeExpiredLoginState(other)).sessions).toBe(1);
    expect(await resolveSession(db, live, IP)).not.toBeNull();
    await endSessions(db, principal.account.id);
  });

  it("set an httpOnly SameSite=Strict cookie, Secure only over https, and read it back", () => {
    expect(sessionCookie("abc", false)).toBe("mailadmin_session=abc; Path=/; HttpOnly; SameSite=Strict");
    expect(sessionCookie("abc", true)).toContain("; Secure");
    expect(clearedSessionCookie(false)).toContain("Max-Age=0");
    const req = new Request("http://x/", { headers: { cookie: "locale=pl; mailadmin_session=abc ; other=1" } });
    expect(readSessionId(req)).toBe("abc");
    expect(readSessionId(new Request("http://x/"))).toBeNull();
  });

  it("are named __Host-mailadmin_session over https, and several session cookies are refused", () => {
    expect(sessionCookie("abc", true)).toMatch(/^__Host-mailadmin_session=abc; Path=\/;/);
    expect(parseSessionCookies("__Host-mailadmin_session=abc", true)).toEqual({ id: "abc", several: false });
    // Over https the plain name (settable by a neighbour over http) is not a session.
    expect(parseSessionCookies("mailadmin_session=abc", true)).toEqual({ id: null, several: false });
    expect(parseSessionCookies("mailadmin_session=a; mailadmin_session=b", false)).toEqual({ id: null, several: true });
    expect(parseSessionCookies("__Host-mailadmin_session=a; mailadmin_session=b", true).several).toBe(true);
  });

  it("are at most 20 per account: the 21st ends the oldest", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push(await createSession(db, principal, IP, Date.now() - 1000 + i));
    expect(await resolveSession(db, ids[0], IP)).toBeNull();
    expect(await resolveSession(db, ids[1], IP)).not.toBeNull();
    expect(await resolveSession(db, ids[20], IP)).not.toBeNull();
    await endSessions(db, principal.account.id);
  });
});

describe("login throttle", () => {
  it("locks an account over every client address, and a success clears it", async () => {
    const now = Date.now();
    // Three failures (AUTH_MAX_FAILURES here), each from another address: rotating addresses does not help.
    for (let i = 0; i < 3; i++) await (await failureGate(db, `198.51.100.${i + 1}`, "a@example.com", null, now)).fail();
    expect((await failureGate(other, "198.51.100.9", "a@example.com", null, now)).lockedFor).toBeGreaterThan(0);
    // Another account is not locked.
    expect((await failureGate(other, "198.51.100.1", "b@example.com", null, now)).lockedFor).toBe(0);
    // A known device is exempt from the account's lock, and is locked by its own failures only.
    expect((await failureGate(other, "198.51.100.9", "a@example.com", "dev1", now)).lockedFor).toBe(0);
    for (let i = 0; i < 3; i++) await (await failureGate(db, "198.51.100.9", "a@example.com", "dev1", now)).fail();
    expect((await failureGate(other, "198.51.100.9", "a@example.com", "dev1", now)).lockedFor).toBeGreaterThan(0);
    expect((await failureGate(other, "198.51.100.9", "a@example.com", "dev2", now)).lockedFor).toBe(0);
    // A lock is not purged while it lasts.
    expect((await purgeExpiredLoginState(db, now)).throttle).toBe(0);
    expect((await failureGate(other, "198.51.100.1", "a@example.com", null, now + 1000)).lockedFor).toBeGreaterThan(0);
  });

  it("slows, never locks, a client address that fails over many accounts", async () => {
    const now = Date.now();
    for (let i = 0; i < 5; i++) await (await failureGate(db, "198.51.100.3", `u${i}@example.com`, null, now)).fail();
    const gate = await failureGate(other, "198.51.100.3", "fresh@example.com", null, now);
    expect(gate.lockedFor).toBe(0);
    expect(gate.slowFailureMs).toBeGreaterThan(0);
    expect((await failureGate(other, "198.51.100.4", "fresh@example.com", null, now)).slowFailureMs).toBe(0);
    // Forgotten once the lock is over and the address has been quiet for 15 minutes.
    expect((await purgeExpiredLoginState(db, now + 16 * 60_000)).throttle).toBeGreaterThan(0);
    expect((await failureGate(other, "198.51.100.3", "fresh@example.com", null, now + 16 * 60_000)).slowFailureMs).toBe(
      0,
    );
  });
});
