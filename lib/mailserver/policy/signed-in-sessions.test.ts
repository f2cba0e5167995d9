// The policy service's record of signed-in submission sessions (./signed-in-sessions.ts): by when each session had
// signed in, and whether the login's password changed after that (the record the trigger writes). The real daemons'
// case is in lib/mailserver/testing/antispam/policy.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { mailPasswordChanges, submissionSessions } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import { parseInstance, SignedInSessions, type SessionRequest } from "./signed-in-sessions";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-sessions-"));
  db = openDatabase(path.join(dir, "mail.db"));
  await runCommand(db, ["domain", "add", "s.test", "--postmaster-password", "Sessions-pass1"]);
});

afterAll(() => {
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const T0 = 1_800_000_000_000;
/** smtpd's instance for a transaction started at `ms` (its MAIL FROM), number `seqno` of the session. */
const instance = (pid: number, ms: number, seqno: number) =>
  `${pid.toString(16)}.${Math.floor(ms / 1000).toString(16)}.${((ms % 1000) * 1000 + 7).toString(16)}.${seqno.toString(16)}`;
const request = (login: string, port: number, inst: string): SessionRequest => ({
  sasl_username: login,
  client_address: "192.0.2.10",
  client_port: String(port),
  server_address: "192.0.2.1",
  server_port: "587",
  instance: inst,
});

describe("signed-in sessions", () => {
  it("reads smtpd's instance: the pid, the transaction's MAIL FROM time and its number in the session", () => {
    expect(parseInstance(instance(0x4d2, T0 + 250, 3))).toEqual({ pid: "4d2", mailAt: T0 + 250, seqno: 3 });
    expect(parseInstance("")).toBeUndefined();
    expect(parseInstance("not.an.instance")).toBeUndefined();
  });

  it("a session is known by its earliest transaction; a change after that refuses it, one before does not", async () => {
    let now = T0 + 10_000;
    const sessions = new SignedInSessions(db, () => now);
    const login = "stary@s.test";
    // First seen at its second transaction, which started at T0 + 5 s: signed in by then.
    expect(await sessions.signedInBy(request(login, 40000, instance(100, T0 + 5_000, 1)))).toBe(T0 + 5_000);
    now = T0 + 60_000;
    // A later transaction of the same session keeps the earlier moment.
    expect(await sessions.signedInBy(request(login, 40000, instance(100, T0 + 50_000, 2)))).toBe(T0 + 5_000);
    await db.insert(mailPasswordChanges).values({ email: login, changedAt: T0 + 30_000 });
    expect(await sessions.signedInBeforeChange(request(login, 40000, instance(100, T0 + 55_000, 3)))).toBe(true);
    // Another session of the login, first seen in a transaction that started after the change: it may have signed in
    // with the new password, and goes on (the window docs/mail-server.md describes).
    expect(await sessions.signedInBeforeChange(request(login, 40001, instance(100, T0 + 40_000, 0)))).toBe(false);
    // The login is compared as Postfix may spell it.
    expect(await sessions.signedInBeforeChange(request("STARY@S.test", 40000, instance(100, T0 + 56_000, 4)))).toBe(
      true,
    );
  });

  it("a new connection that reuses the client port on the same smtpd process is a new session", async () => {
    let now = T0 + 1_000;
    const sessions = new SignedInSessions(db, () => now);
    const login = "port@s.test";
    expect(await sessions.signedInBy(request(login, 41000, instance(200, T0 + 1_000, 0)))).toBe(T0 + 1_000);
    await db.insert(mailPasswordChanges).values({ email: login, changedAt: T0 + 2_000 });
    now = T0 + 3_000;
    expect(await sessions.signedInBeforeChange(request(login, 41000, instance(200, T0 + 3_000, 1)))).toBe(true);
    // The next connection from the same port, signed in with the new password: its transactions count from 0 again.
    now = T0 + 9_000;
    expect(await sessions.signedInBeforeChange(request(login, 41000, instance(200, T0 + 9_000, 0)))).toBe(false);
    // Without an instance Postfix's own (a future format), the request's time stands in for the transaction's.
    const bare = new SignedInSessions(db, () => now);
    expect(await bare.signedInBeforeChange({ ...request(login, 41001, ""), instance: undefined })).toBe(false);
  });

  it("is kept in the database: another host's policy service, or this one after a restart, knows the session", async () => {
    let now = T0 + 1_000;
    const login = "restart@s.test";
    const before = new SignedInSessions(db, () => now);
    expect(await before.signedInBy(request(login, 42000, instance(300, T0 + 1_000, 0)))).toBe(T0 + 1_000);
    await db.insert(mailPasswordChanges).values({ email: login, changedAt: T0 + 2_000 });
    now = T0 + 5_000;
    // The session's next transaction began after the change; only the remembered first one tells it signed in before.
    const after = new SignedInSessions(db, () => now);
    expect(await after.signedInBeforeChange(request(login, 42000, instance(300, T0 + 5_000, 1)))).toBe(true);
  });

  it("forgets sessions not asked about for a day", async () => {
    const count = async () =>
      (await db.select().from(submissionSessions)).filter((r) => /^[abc]@s\.test\n/.test(r.session)).length;
    let now = T0;
    const sessions = new SignedInSessions(db, () => now);
    await sessions.signedInBy(request("a@s.test", 1, instance(1, T0, 0)));
    now = T0 + 3_600_000;
    await sessions.signedInBy(request("b@s.test", 2, instance(1, now, 0)));
    expect(await count()).toBe(2);
    now = T0 + 86_400_000 + 120_000;
    await sessions.signedInBy(request("c@s.test", 3, instance(1, now, 0)));
    // a was last asked about more than a day ago; b less.
    expect(await count()).toBe(2);
    // The first session asked about again is a new one: it starts at this transaction.
    expect(await sessions.signedInBy(request("a@s.test", 1, instance(1, now, 1)))).toBe(now);
    expect(await sessions.signedInBy(request("b@s.test", 2, instance(1, now, 1)))).toBe(T0 + 3_600_000);
  });
});
