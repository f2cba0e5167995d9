// Housekeeping's expunge runs, with a recording stand-in for doveadm: how the accounts are split between runs. What
// the expunges do to real mailboxes is tested against Dovecot in mail-server.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { smsQueue } from "@/db/schema";
import { createAccount } from "@/lib/server/resources/accounts";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { addDomain } from "@/lib/server/resources/new-domain";
import { runHousekeeping } from "./housekeeping";
import { setDomainMailHost, setMailHost } from "./mail-hosts";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
let fakeDoveadm: string;
const runsLog = () => path.join(dir, "runs.log");

beforeAll(async () => {
  Object.assign(process.env, { SCRYPT_COST: "1024" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-housekeeping-"));
  db = openDatabase(path.join(dir, "mail.db"));
  await addDomain(db, "h.test", "Admin-pass1", {});
  const domain = await getDomainOrThrow(db, "h.test");
  // With the postmaster, seven accounts keep Trash and Spam 30 days (the defaults); one keeps Trash 7 days.
  for (const name of ["a", "b", "c", "d", "e", "f"]) await createAccount(db, domain, name, { password: "Secret-123" });
  await createAccount(db, domain, "g", { password: "Secret-123", trash_delete_after: 7 });
  // Every mailbox but f's holds messages (quota_clone's count); f never got mail, so it has no mailbox to open.
  db.$client.prepare("UPDATE accounts SET usage_messages = 3 WHERE name <> 'f'").run();
  // Each run: its arguments on one line, then the users of its -F file, then a blank line.
  fakeDoveadm = path.join(dir, "doveadm");
  fs.writeFileSync(fakeDoveadm, `#!/bin/sh\n{ echo "$*"; cat "$3"; echo; } >> ${JSON.stringify(runsLog())}\n`, {
    mode: 0o755,
  });
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("expunge runs", () => {
  it("split a group of accounts into runs of at most the batch size, every account with mail in exactly one", async () => {
    const report = await runHousekeeping(db, { doveadm: [fakeDoveadm], expungeBatch: 3 });
    expect(report.failed).toEqual([]);
    expect(report.expunged).toEqual([
      "Trash: savedbefore 7d, 1 account(s)",
      "Trash: savedbefore 30d, 3 account(s) (1-3 of 6)",
      "Trash: savedbefore 30d, 3 account(s) (4-6 of 6)",
      "Spam: savedbefore 30d, 3 account(s) (1-3 of 7)",
      "Spam: savedbefore 30d, 3 account(s) (4-6 of 7)",
      "Spam: savedbefore 30d, 1 account(s) (7-7 of 7)",
    ]);
    const runs = fs
      .readFileSync(runsLog(), "utf8")
      .trim()
      .split("\n\n")
      .map((run) => run.split("\n"));
    expect(runs.map((run) => run.length - 1)).toEqual([1, 3, 3, 3, 3, 1]);
    const trash30 = runs.slice(1, 3).flatMap((run) => run.slice(1));
    // f, which never got mail, is in no run: opening it would make its Maildir.
    expect(trash30.sort()).toEqual(["a", "b", "c", "d", "e", "postmaster"].map((n) => `${n}@h.test`));
    expect(runs.flat()).not.toContain("f@h.test");
    expect(runs[0]!.slice(1)).toEqual(["g@h.test"]);
    for (const run of runs) expect(run[0]).toMatch(/^expunge -F \S+ mailbox (Trash|Spam) savedbefore \d+$/);
  });
});

describe("the SMS queue", () => {
  it("loses the notifications done more than 90 days ago, keeps newer ones and every pending one", async () => {
    const now = Date.UTC(2026, 10, 30);
    const account = await getAccountOrThrow(db, await getDomainOrThrow(db, "h.test"), "a");
    const day = (n: number) => new Date(now - n * 86_400_000).toISOString();
    const rows = [
      ["sent", 91],
      ["failed", 120],
      ["skipped", 365],
      ["pending", 200],
      ["sent", 89],
      ["failed", 1],
    ] as const;
    for (const [status, age] of rows)
      await db.insert(smsQueue).values({
        accountId: account.id,
        slot: 1,
        channel: "http",
        target: "+48600000000",
        parts: [`${status} ${age}`],
        status,
        nextAttemptAt: day(age),
        createdAt: day(age),
      });
    const report = await runHousekeeping(db, { doveadm: [fakeDoveadm], now: new Date(now) });
    expect(report.sms).toEqual({ days: 90, deleted: 3 });
    const left = await db.select({ parts: smsQueue.parts }).from(smsQueue);
    expect(left.map((r) => r.parts[0]).sort()).toEqual(["failed 1", "pending 200", "sent 89"]);
  });
});

describe("on one of several mail hosts", () => {
  it("refuses a host name mail_hosts does not have, running nothing, and runs for the mailboxes of a known one", async () => {
    const domain = await getDomainOrThrow(db, "h.test");
    await setMailHost(db, "imap1", { address: "127.0.0.1" });
    await setDomainMailHost(db, domain.id, "imap1");
    try {
      fs.rmSync(runsLog(), { force: true });
      // A misspelt MAIL_HOST_NAME: every mailbox of h.test looked like another host's, so the run expunged nothing
      // and reported "nothing to do" (exit 0) instead of failing.
      await expect(runHousekeeping(db, { doveadm: [fakeDoveadm], hostName: "imap9" })).rejects.toThrow(
        "no mail host imap9 (add it: mailserver host set imap9 --address <address>)",
      );
      expect(fs.existsSync(runsLog())).toBe(false);
      const report = await runHousekeeping(db, { doveadm: [fakeDoveadm], hostName: "imap1" });
      expect(report.expunged).toContain("Trash: savedbefore 7d, 1 account(s)");
    } finally {
      await setDomainMailHost(db, domain.id, null);
    }
  });
});
