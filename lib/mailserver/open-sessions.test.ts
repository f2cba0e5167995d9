// Ending the sessions of users who may no longer log in, against a stand-in doveadm (a script that prints a `who`
// listing and records each kick) over a real SQLite file; delivery.test.ts has it with the real Dovecot.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { withTransaction } from "@/db/transaction";
import type { Principal } from "@/lib/server/caller/auth";
import { createAccount, deleteAccounts, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { addDomain } from "@/lib/server/resources/new-domain";
import { startMailEvents } from "./events";
import { setMailHost } from "./mail-hosts";
import { connectedUsers, endRefusedSessions } from "./open-sessions";
import {
  markPasswordChangesHandled,
  PASSWORD_CHANGE_KEEP_MS,
  prunePasswordChanges,
  unhandledPasswordChanges,
} from "./password-changes";
import { smsConfig } from "./sms/config";

vi.mock("server-only", () => ({}));

const D = "sessions.example";
const PW = "Konto-pass1";
let dir: string;
let db: Db;
let doveadm: string[];
let postmaster: Principal;

/** Files the stand-in reads (who.txt, kick-status) and writes (calls.txt: one line per call, its arguments). */
const file = (name: string) => path.join(dir, name);
const calls = () => (fs.existsSync(file("calls.txt")) ? fs.readFileSync(file("calls.txt"), "utf8").trim() : "");
const who = (rows: [string, string][]) =>
  fs.writeFileSync(
    file("who.txt"),
    `username\tproto\tpid\tip\n${rows.map(([u, p], i) => `${u}\t${p}\t${1000 + i}\t127.0.0.1\n`).join("")}`,
  );

beforeAll(async () => {
  process.env.SCRYPT_COST = "1024";
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "open-sessions-"));
  const script = file("doveadm");
  fs.writeFileSync(
    script,
    `#!/bin/sh
dir=$(dirname "$0")
echo "$*" >> "$dir/calls.txt"
case "$*" in
  *" who -1") [ -f "$dir/who-fails" ] && { echo "Error: connect(anvil) failed" >&2; exit 75; }; cat "$dir/who.txt" ;;
  *" kick "*) exit $(cat "$dir/kick-status" 2>/dev/null || echo 0) ;;
esac
`,
    { mode: 0o755 },
  );
  doveadm = [script, "-c", "/etc/dovecot/x.conf"];
  db = openDatabase(file("t.db"));
  const domain = await addDomain(db, D, PW, {});
  postmaster = {
    account: await getAccountOrThrow(db, domain, "postmaster"),
    domain: D,
    isPostmaster: true,
  };
  for (const name of ["ok", "blocked", "expired", "deleted", "changed", "other"])
    await createAccount(db, domain, name, { password: PW });
  await updateAccounts(db, postmaster, domain, ["blocked"], { blocked: 1 });
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await updateAccounts(db, postmaster, domain, ["expired"], { expiration_date: yesterday });
  await deleteAccounts(db, domain, ["deleted"]);
});

afterAll(() => {
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("connectedUsers", () => {
  it("reads doveadm -f tab who -1: each user once, LMTP deliveries left out", () => {
    expect(
      connectedUsers("username\tproto\tpid\tip\na@x.test\timap\t1\t::1\na@x.test\tpop3\t2\t::1\nb@x.test\tlmtp\t3\t\n"),
    ).toEqual(["a@x.test"]);
    expect(connectedUsers("username\tproto\tpid\tip\n")).toEqual([]);
  });
});

describe("endRefusedSessions", () => {
  it("kicks the blocked, the expired and the deleted, through Dovecot's config, and leaves who may log in", async () => {
    fs.rmSync(file("calls.txt"), { force: true });
    who([
      [`ok@${D}`, "imap"],
      [`blocked@${D}`, "imap"],
      [`blocked@${D}`, "pop3"],
      [`expired@${D}`, "imap"],
      [`deleted@${D}`, "imap"],
      [`nobody@elsewhere.test`, "sieve"],
      [`postmaster@${D}`, "imap"],
    ]);
    expect(await endRefusedSessions(db, doveadm)).toEqual({
      ended: [`blocked@${D}`, `expired@${D}`, `deleted@${D}`, "nobody@elsewhere.test"],
      passwordChanged: [],
      failed: [],
    });
    expect(calls().split("\n")).toEqual([
      "-c /etc/dovecot/x.conf -f tab who -1",
      `-c /etc/dovecot/x.conf kick blocked@${D}`,
      `-c /etc/dovecot/x.conf kick expired@${D}`,
      `-c /etc/dovecot/x.conf kick deleted@${D}`,
      "-c /etc/dovecot/x.conf kick nobody@elsewhere.test",
    ]);
  });

  it("nobody connected: no kick, and one query (the password changes)", async () => {
    fs.rmSync(file("calls.txt"), { force: true });
    who([]);
    expect(await endRefusedSessions(db, doveadm)).toEqual({ ended: [], passwordChanged: [], failed: [] });
    expect(calls()).toBe("-c /etc/dovecot/x.conf -f tab who -1");
  });

  it("never kicks by a mask: a name with * or ? is left alone", async () => {
    fs.rmSync(file("calls.txt"), { force: true });
    who([[`*@${D}`, "imap"]]);
    expect(await endRefusedSessions(db, doveadm)).toEqual({ ended: [], passwordChanged: [], failed: [] });
    expect(calls()).not.toContain("kick");
  });

  it("a session that ended meanwhile (kick exits 68, no users kicked) is ended; another kick failure is reported, the others still kicked", async () => {
    who([
      [`blocked@${D}`, "imap"],
      [`expired@${D}`, "imap"],
    ]);
    fs.writeFileSync(file("kick-status"), "68");
    expect(await endRefusedSessions(db, doveadm)).toEqual({
      ended: [`blocked@${D}`, `expired@${D}`],
      passwordChanged: [],
      failed: [],
    });
    fs.rmSync(file("calls.txt"), { force: true });
    fs.writeFileSync(file("kick-status"), "75");
    const { ended, failed } = await endRefusedSessions(db, doveadm);
    expect(ended).toEqual([]);
    expect(failed).toEqual([
      `${doveadm.join(" ")} kick blocked@${D} failed (exit 75): no output`,
      `${doveadm.join(" ")} kick expired@${D} failed (exit 75): no output`,
    ]);
    fs.rmSync(file("kick-status"));
  });

  it("a failing doveadm who throws doveadm's own error", async () => {
    fs.writeFileSync(file("who-fails"), "");
    try {
      await expect(endRefusedSessions(db, doveadm)).rejects.toThrow(
        /who -1 failed \(exit 75\): Error: connect\(anvil\) failed/,
      );
    } finally {
      fs.rmSync(file("who-fails"));
    }
  });
});

describe("the mail event service's check", () => {
  it("ends refused sessions on its own, and logs a failing doveadm once without stopping", async () => {
    fs.rmSync(file("calls.txt"), { force: true });
    who([
      [`ok@${D}`, "imap"],
      [`blocked@${D}`, "imap"],
    ]);
    const logged: string[] = [];
    const events = await startMailEvents({
      db,
      doveadm,
      sms: smsConfig({ rateLimitPerHour: 0 }),
      transport: { smtp: { host: "127.0.0.1", port: 9 } },
      queueIntervalMs: 3_600_000,
      sessionCheckMs: 20,
      log: (line) => logged.push(line),
    });
    try {
      await vi.waitFor(() => expect(logged).toContain(`sessions: ended blocked@${D} (may no longer log in)`), {
        timeout: 5_000,
      });
      fs.writeFileSync(file("who-fails"), "");
      const before = calls().split("\n").length;
      // Several failed checks: one line.
      await vi.waitFor(() => expect(calls().split("\n").length).toBeGreaterThan(before + 3), { timeout: 5_000 });
      const failures = logged.filter((l) => l.includes("connect(anvil) failed"));
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(/^sessions: .* who -1 failed \(exit 75\)/);
      const res = await fetch(`${events.url}/nothing`, { method: "POST" });
      expect(res.status).toBe(404);
    } finally {
      fs.rmSync(file("who-fails"), { force: true });
      await events.close();
    }
  });
});

describe("the sessions of an account whose mail password changed", () => {
  const rows = () =>
    db.$client.prepare("SELECT email FROM mail_password_changes ORDER BY id").pluck().all() as string[];
  const reset = () => db.$client.exec("DELETE FROM mail_password_changes");
  let n = 0;
  /** A new password for `changed` through the service the API, the panel and the CLI call. */
  const change = async () =>
    updateAccounts(db, postmaster, await getDomainOrThrow(db, D), ["changed"], { password: `Nowe-haslo${++n}` });

  it("the trigger records every change of the mail password hash, whatever writes it, and nothing else", async () => {
    reset();
    await change();
    expect(rows()).toEqual([`changed@${D}`]);
    // A direct SQL fix, as an operator would make it.
    db.$client
      .prepare("UPDATE accounts SET mail_password_hash = 'x' || mail_password_hash WHERE email = ?")
      .run(`other@${D}`);
    expect(rows()).toEqual([`changed@${D}`, `other@${D}`]);
    // Updates that keep the hash (another field, the same value) record nothing.
    await updateAccounts(db, postmaster, await getDomainOrThrow(db, D), ["changed"], { description: "x" });
    db.$client.prepare("UPDATE accounts SET mail_password_hash = mail_password_hash, usage_bytes = 5").run();
    expect(rows()).toEqual([`changed@${D}`, `other@${D}`]);
    reset();
  });

  it("ends them once on each host; another account's sessions and a later session with the new password stay", async () => {
    reset();
    who([
      [`changed@${D}`, "imap"],
      [`changed@${D}`, "pop3"],
      [`other@${D}`, "imap"],
    ]);
    await change();
    fs.rmSync(file("calls.txt"), { force: true });
    expect(await endRefusedSessions(db, doveadm, "a")).toEqual({
      ended: [],
      passwordChanged: [`changed@${D}`],
      failed: [],
    });
    expect(calls().split("\n")).toEqual([
      "-c /etc/dovecot/x.conf -f tab who -1",
      `-c /etc/dovecot/x.conf kick changed@${D}`,
    ]);
    // The sessions listed now were opened with the new password: host a leaves them.
    fs.rmSync(file("calls.txt"), { force: true });
    expect(await endRefusedSessions(db, doveadm, "a")).toEqual({ ended: [], passwordChanged: [], failed: [] });
    expect(calls()).not.toContain("kick");
    // Host b ends the sessions its own Dovecot serves, from the same record.
    expect((await endRefusedSessions(db, doveadm, "b")).passwordChanged).toEqual([`changed@${D}`]);
    expect(await unhandledPasswordChanges(db, "a")).toEqual([]);
    expect(await unhandledPasswordChanges(db, "b")).toEqual([]);
  });

  it("a change whose user is not connected is handled: a session opened later stays", async () => {
    reset();
    await change();
    who([[`other@${D}`, "imap"]]);
    expect((await endRefusedSessions(db, doveadm)).passwordChanged).toEqual([]);
    who([[`changed@${D}`, "imap"]]);
    fs.rmSync(file("calls.txt"), { force: true });
    expect((await endRefusedSessions(db, doveadm)).passwordChanged).toEqual([]);
    expect(calls()).not.toContain("kick");
  });

  it("a failed kick leaves the change for the next check", async () => {
    reset();
    await change();
    who([[`changed@${D}`, "imap"]]);
    fs.writeFileSync(file("kick-status"), "75");
    try {
      const { passwordChanged, failed } = await endRefusedSessions(db, doveadm);
      expect(passwordChanged).toEqual([]);
      expect(failed).toEqual([`${doveadm.join(" ")} kick changed@${D} failed (exit 75): no output`]);
    } finally {
      fs.rmSync(file("kick-status"));
    }
    expect((await endRefusedSessions(db, doveadm)).passwordChanged).toEqual([`changed@${D}`]);
  });

  it("marks and prunes behind another write of the service's process instead of failing (SQLite)", async () => {
    // A write on the shared connection while the process's write connection holds the lock busy-waits on the event
    // loop the holder needs, and fails after the busy timeout (db/sqlite/dialect.ts): here a last login's update.
    reset();
    await change();
    const whileHeld = async <T>(work: () => Promise<T>): Promise<T> => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const other = withTransaction(db, async (tx) => {
        tx.$client.prepare("UPDATE accounts SET last_auth_ip = last_auth_ip WHERE email = ?").run(`ok@${D}`);
        entered();
        await held;
      });
      await inside;
      const result = work();
      release();
      await other;
      return result;
    };
    const [pending] = await unhandledPasswordChanges(db, "a");
    await whileHeld(() => markPasswordChangesHandled(db, "a", [pending!.id]));
    expect(await unhandledPasswordChanges(db, "a")).toEqual([]);
    db.$client.prepare("UPDATE mail_password_changes SET changed_at = changed_at - ?").run(PASSWORD_CHANGE_KEEP_MS + 1);
    expect(await whileHeld(() => prunePasswordChanges(db))).toBe(1);
  });

  it("keeps a change a day, then deletes it with its marks", async () => {
    reset();
    await change();
    await change();
    const [first] = await unhandledPasswordChanges(db, "a");
    db.$client
      .prepare("UPDATE mail_password_changes SET changed_at = changed_at - ? WHERE id = ?")
      .run(PASSWORD_CHANGE_KEEP_MS + 1_000, first!.id);
    who([]);
    await endRefusedSessions(db, doveadm, "a");
    expect(await prunePasswordChanges(db)).toBe(1);
    expect(rows()).toEqual([`changed@${D}`]);
    expect(db.$client.prepare("SELECT change_id FROM mail_password_changes_handled").pluck().all()).toEqual([
      first!.id + 1,
    ]);
    expect(await prunePasswordChanges(db)).toBe(0);
  });

  it("the mail event service started after a change ends the sessions opened before it, and logs it", async () => {
    reset();
    await change();
    who([
      [`changed@${D}`, "imap"],
      [`other@${D}`, "imap"],
    ]);
    const logged: string[] = [];
    // A host of mail_hosts: the service refuses a name that is not one.
    await setMailHost(db, "restarted", { address: "127.0.0.1" });
    const events = await startMailEvents({
      db,
      doveadm,
      sms: smsConfig({ rateLimitPerHour: 0 }),
      transport: { smtp: { host: "127.0.0.1", port: 9 } },
      queueIntervalMs: 3_600_000,
      sessionCheckMs: 20,
      hostName: "restarted",
      log: (line) => logged.push(line),
    });
    try {
      await vi.waitFor(() => expect(logged).toContain(`sessions: ended changed@${D} (password changed)`), {
        timeout: 5_000,
      });
      expect(logged.join("\n")).not.toContain("other@");
    } finally {
      await events.close();
    }
  });
});
