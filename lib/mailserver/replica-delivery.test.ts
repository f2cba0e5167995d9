// A second mail host delivers from its replica while the primary is down (docs/postgresql.md, "Several mail hosts"):
// host b's Postfix maps and Dovecot (passdb, userdb, the Sieve dict) read a streaming replica of the test file's
// cluster, its quota write-back goes to the primary. With the primary stopped, mail for b's mailbox is accepted by
// b's MX and delivered with the account's Sieve applied (the spam filter files into Spam, the autoresponder
// replies), the mailbox is read over IMAP; only the writes wait: the quota write-back fails (logged) and the usage is
// set again by the first write-back that reaches the primary once it is back, and a login's last-login record is
// not written while it is gone. With the replica behind, an account just created on the primary gets its mail through
// b and logs in there: b asks the primary what its replica does not know yet; after a password change not yet
// replayed, a session b lets in with the old password is still ended (open-sessions.ts, PASSWORD_CHANGE_SETTLE_MS).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { startReplica, type PgCluster } from "@/e2e/support/pg-cluster";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { endRefusedSessions } from "./open-sessions";
import { writeDnsRecords } from "./sandbox/dns-server";
import { maildirNew } from "./sandbox/outbound-sink";
import {
  closeTestDatabase,
  imapIdle,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  smtpTry,
  startMailSystem,
  startSecondMailHost,
  testPgCluster,
  testSandboxPostgres,
  waitFor,
  type MailTestLayout,
} from "./testing/mail-daemons";
import { A, B, describeOnPostgres, imapInbox, placeOnHosts, PW, registerHosts } from "./testing/several-hosts";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 120_000 });

// PostgreSQL only (`npm run test:mail:pg`): a streaming replica of the test file's cluster.
const describeOnPg = describeOnPostgres("replica delivery test");

const EWA = `ewa@${B}`;
let db: Db;
let primary: PgCluster;
let replica: PgCluster;
let a: MailTestLayout;
let b: MailTestLayout;
let root: string;
let counter = 0;

/** A message; `spamScore` raises the sandbox Rspamd's score by that much (X-Sandbox-Spam-Score). */
const message = (from: string, to: string, subject: string, spamScore?: number) =>
  `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject}.${Date.now()}.${counter++}@client.test>\n` +
  `Date: ${new Date().toUTCString()}\n${spamScore === undefined ? "" : `X-Sandbox-Spam-Score: ${spamScore}\n`}\nHello.\n`;

const has = (folder: string, subject: string) =>
  readMessages(b, EWA, folder).some((m) => m.includes(`Subject: ${subject}\n`));

/** The autoresponder's replies that left (the shared outbound Maildir) for `to`. */
const repliesTo = (to: string) =>
  maildirNew(a.outbound)
    .map((f) => fs.readFileSync(f, "utf8"))
    .filter((m) => /^Auto-Submitted: auto-replied/im.test(m) && m.includes(`X-Sandbox-Envelope-To: <${to}>`));

const ewaRow = async () => (await db.select().from(accounts).where(eq(accounts.email, EWA)))[0]!;
const dovecotLog = (l: MailTestLayout) => fs.readFileSync(path.join(l.logs, "dovecot.log"), "utf8");

describeOnPg("a mail host reading a replica while the primary is down", () => {
  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-replica-delivery-");
    db = await openTestDatabase(path.join(root, "db", "mail.db"));
    primary = testPgCluster();
    for (const d of [A, B]) await runCommand(db, ["domain", "add", d, "--postmaster-password", PW]);
    await createAccount(db, await getDomainOrThrow(db, B), "ewa", {
      password: PW,
      spam_hits: 5,
      spam_rule: "move",
      autoresponder_mode: 1,
      autoresponder_body: "Jestem na urlopie.",
    });
    // The autoresponder answers only a verified envelope sender (docs/mail-server.md, Autoresponder): the shared
    // Rspamd checks SPF for the loopback client, and outside.test's record lets it send.
    await registerHosts(db);
    a = await startMailSystem(root, { hostName: "a", authChecksForLoopback: true });
    writeDnsRecords(a.dnsRecords, { "outside.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] } });
    replica = await startReplica(primary, { replicationUser: "replicator" });
    // Host b as docs/postgresql.md sets it up: lookups on its replica, the quota write-back to the primary.
    b = await startSecondMailHost(root, a, "host-b", {
      hostName: "b",
      postgres: {
        ...testSandboxPostgres()!,
        readHosts: [`127.0.0.1:${replica.port}`],
        writeHost: `127.0.0.1:${primary.port}`,
      },
    });
    await placeOnHosts(db, a, b);
    // The replica has replayed the placement and both Sieve scripts (polled: replay has no event to wait on).
    await waitFor(
      "the placement and Sieve scripts on the replica",
      () =>
        replica.psql(`SELECT count(*) FROM mail_account_hosts WHERE email = '${EWA}' AND host = 'b'`).trim() === "1" &&
        replica.psql(`SELECT count(*) FROM mail_sieve_scripts WHERE username = '${EWA}'`).trim() === "2",
      30_000,
    );
  }, 240_000);

  afterAll(async () => {
    await b?.sandbox.stop();
    await a?.sandbox.stop();
    await replica?.stop();
    // The setup file stops the primary; it must be running for the pool's close.
    await primary?.start();
    await closeTestDatabase(db);
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  }, 60_000);

  it("host b's configuration reads the replica and writes usage to the primary", async () => {
    expect(replica.psql("SELECT pg_is_in_recovery()").trim()).toBe("t");
    const conf = (f: string) => fs.readFileSync(path.join(b.conf, f), "utf8");
    expect(conf("postfix/virtual-mailbox-maps.cf")).toContain(`hosts = 127.0.0.1:${replica.port}\n`);
    expect(conf("dovecot/dovecot-sql.conf.ext")).toContain(`host=127.0.0.1 port=${replica.port} `);
    expect(conf("dovecot/dovecot-dict-sieve-sql.conf.ext")).toContain(`host=127.0.0.1 port=${replica.port} `);
    expect(conf("dovecot/dovecot-dict-sql.conf.ext")).toContain(`host=127.0.0.1 port=${primary.port} `);
    // With the primary up: delivered, filtered, the usage written back.
    const sent = await smtpTry(
      b.ports.smtp,
      "before@outside.test",
      [EWA],
      message("before@outside.test", EWA, "before-stop"),
    );
    expect(sent.accepted).toEqual([EWA]);
    await waitFor("before-stop in ewa's inbox on host b", () => has("", "before-stop"), 60_000);
    await waitFor("the usage written back", async () => (await ewaRow()).usageMessages === 1, 30_000);
    await waitFor("the autoresponder's reply", () => repliesTo("before@outside.test").length === 1, 30_000);
  });

  it("with the replica behind, an account created a moment ago gets its mail through host b and logs in there", async () => {
    // The primary answers what the replica does not know yet (primaryFallback in config-database.ts).
    expect(fs.readFileSync(path.join(b.conf, "postfix/virtual-mailbox-maps-primary.cf"), "utf8")).toContain(
      `hosts = 127.0.0.1:${primary.port}\n`,
    );
    const NOWA = `nowa@${B}`;
    replica.psql("SELECT pg_wal_replay_pause()");
    try {
      await createAccount(db, await getDomainOrThrow(db, B), "nowa", { password: PW });
      // Committed on the primary, not replayed: the replica's own lookup does not know the mailbox.
      expect(primary.psql(`SELECT count(*) FROM mail_mailboxes WHERE email = '${NOWA}'`).trim()).toBe("1");
      expect(replica.psql(`SELECT count(*) FROM mail_mailboxes WHERE email = '${NOWA}'`).trim()).toBe("0");

      const sent = await smtpTry(
        b.ports.smtp,
        "early@outside.test",
        [NOWA],
        message("early@outside.test", NOWA, "first-mail"),
      );
      expect(sent.refused).toEqual([]);
      expect(sent.accepted).toEqual([NOWA]);
      await waitFor(
        "first-mail in nowa's inbox on host b",
        () => readMessages(b, NOWA, "").some((m) => m.includes("Subject: first-mail\n")),
        60_000,
      );
      const login = await imapInbox(b.ports.imap, NOWA);
      expect(login.login).toMatch(/^a OK/m);
      expect(login.subjects).toEqual(["first-mail"]);
      // An address that exists nowhere is still refused during the dialogue.
      const nobody = await smtpTry(
        b.ports.smtp,
        "early@outside.test",
        [`nikt@${B}`],
        message("early@outside.test", `nikt@${B}`, "to-nobody"),
      );
      expect(nobody.accepted).toEqual([]);
      expect(nobody.refused.map((r) => [r.address, r.code])).toEqual([[`nikt@${B}`, 550]]);
      expect(replica.psql(`SELECT count(*) FROM mail_mailboxes WHERE email = '${NOWA}'`).trim()).toBe("0");
    } finally {
      replica.psql("SELECT pg_wal_replay_resume()");
    }
  });

  it("with the replica behind, a password change still ends a session opened with the old password after a check", async () => {
    // Host b's passdb reads the replica: until it replays the change, the old password still logs in there, also
    // after a check has run. Before, that check marked the change handled and such a session stayed open for good.
    const USER = `haslo@${B}`;
    const NEW = "Nowe-haslo-456";
    await createAccount(db, await getDomainOrThrow(db, B), "haslo", { password: PW });
    const hashOn = (c: PgCluster) => c.psql(`SELECT password FROM mail_passdb WHERE "user" = '${USER}'`).trim();
    await waitFor("haslo on the replica", () => hashOn(replica) !== "", 30_000);
    const doveadm = ["doveadm", "-c", b.dovecotConf];
    replica.psql("SELECT pg_wal_replay_pause()");
    try {
      await runCommand(db, ["account", "set-password", USER, "--password", NEW]);
      expect(hashOn(replica)).not.toBe(hashOn(primary));
      // A check of host b after the change, nobody connected (host b's own service checks every second too).
      await endRefusedSessions(db, doveadm, "b");
      const stale = await imapIdle(b.ports.imap, USER, PW);
      await endRefusedSessions(db, doveadm, "b");
      await stale.s.until(/^\* BYE /, 10_000);
      await stale.closed;
    } finally {
      replica.psql("SELECT pg_wal_replay_resume()");
    }
    // Host b's own service marks the change handled once it has settled; a session with the new password then stays.
    const handled = () =>
      primary.psql(
        `SELECT count(*) FROM mail_password_changes_handled h JOIN mail_password_changes c ON c.id = h.change_id ` +
          `WHERE c.email = '${USER}' AND h.host = 'b'`,
      );
    await waitFor("the change handled on host b", () => handled().trim() === "1", 60_000);
    expect(hashOn(replica)).toBe(hashOn(primary));
    const fresh = await imapIdle(b.ports.imap, USER, NEW);
    await endRefusedSessions(db, doveadm, "b");
    fresh.s.write("DONE\r\n");
    await fresh.s.until(/^c OK/);
    fresh.s.write("d LOGOUT\r\n");
    fresh.s.close();
  });

  it("with the primary stopped, host b accepts and delivers with the account's Sieve (spam folder, autoresponder); IMAP works", async () => {
    const lastAuthBefore = (await ewaRow()).lastAuthDate;
    await primary.kill();
    expect(() => primary.psql("SELECT 1")).toThrow();

    const plain = await smtpTry(
      b.ports.smtp,
      "down@outside.test",
      [EWA],
      message("down@outside.test", EWA, "while-down"),
    );
    expect(plain.refused).toEqual([]);
    expect(plain.accepted).toEqual([EWA]);
    // An address the replica does not know is asked of the primary (see above), which is down: deferred, not refused.
    const unknown = await smtpTry(
      b.ports.smtp,
      "down@outside.test",
      [`nikt@${B}`],
      message("down@outside.test", `nikt@${B}`, "to-nobody-while-down"),
    );
    expect(unknown.accepted).toEqual([]);
    expect(unknown.refused.map((r) => [r.address, Math.floor(r.code / 100)])).toEqual([[`nikt@${B}`, 4]]);
    const spam = await smtpTry(
      b.ports.smtp,
      "spammer@outside.test",
      [EWA],
      message("spammer@outside.test", EWA, "spam-while-down", 10),
    );
    expect(spam.accepted).toEqual([EWA]);
    await waitFor("while-down in ewa's inbox", () => has("", "while-down"), 60_000);
    // The spam filter (sieve_before, read from the replica) filed it into Spam.
    await waitFor("spam-while-down in ewa's Spam folder", () => has("Spam", "spam-while-down"), 60_000);
    expect(has("", "spam-while-down")).toBe(false);
    // The autoresponder (the account's own script, read from the replica) replied.
    await waitFor(
      "the autoresponder's reply to down@outside.test",
      () => repliesTo("down@outside.test").length === 1,
      30_000,
    );
    expect(repliesTo("down@outside.test")[0]).toContain("Jestem na urlopie.");

    // IMAP through b: the passdb and userdb read the replica.
    const login = await imapInbox(b.ports.imap, EWA);
    expect(login.login).toMatch(/^a OK/m);
    expect(login.exists).toBe(2);

    // What needs a write waits: quota_clone could not write the usage to the primary (the delivery did not wait
    // for it), and Dovecot's report of the login reached the mail events, whose write failed.
    await waitFor(
      "quota_clone's failed write in b's log",
      () => /quota_clone.*(fail|error)|(fail|error).*quota_clone/i.test(dovecotLog(b)),
      30_000,
    );

    // The primary back: a delivery's write-back sets the whole usage again. Dovecot's dict processes keep the
    // connections they had before the outage, and the first write on each fails once more ("terminating
    // connection"), so the usage is right after the first write-back on a new connection: at most one delivery
    // per dict process (up to 4 here).
    await primary.start();
    let count = 3; // the inbox's 2 and Spam's 1
    let synced = false;
    for (let i = 1; i <= 4 && !synced; i++) {
      const subject = `after-restart-${i}`;
      const after = await smtpTry(
        b.ports.smtp,
        "after@outside.test",
        [EWA],
        message("after@outside.test", EWA, subject),
      );
      expect(after.accepted).toEqual([EWA]);
      await waitFor(`${subject} in ewa's inbox`, () => has("", subject), 60_000);
      count++;
      const expected = count;
      synced = await waitFor(
        "the usage written back",
        async () => (await ewaRow()).usageMessages === expected,
        5_000,
      ).then(
        () => true,
        () => false,
      );
      if (synced) console.log(`replica delivery: usage written back by delivery ${i} after the primary's restart`);
    }
    expect(synced).toBe(true);
    // The login made while the primary was down left no last-login record; the next one, with it back, does.
    expect((await ewaRow()).lastAuthDate).toBe(lastAuthBefore);
    expect((await imapInbox(b.ports.imap, EWA)).login).toMatch(/^a OK/m);
    await waitFor("the last login recorded", async () => (await ewaRow()).lastAuthDate !== lastAuthBefore, 30_000);
  });
});
