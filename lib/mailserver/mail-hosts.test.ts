// Two mail hosts on loopback over one database (docs/mail-hosts.md): host a runs the whole sandbox, host b its own
// Postfix, Dovecot, policy service and mail events beside it. A domain placed on b receives mail sent to a's MX
// (Postfix hands it to b's LMTP), is read through a's IMAP, POP3 and LMTP (Dovecot's proxy), and the jobs of its
// mailboxes run on b only; a sender greylisted through one MX is accepted through the other after the delay (the
// triplets in the shared database; the policy services' clock is faked).
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { accounts, smsQueue } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import { createAccount, deleteAccounts, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { runHousekeeping } from "./housekeeping";
import { loadSmsConfig } from "./sms/config";
import { enqueueNewMail, processSmsQueue } from "./sms/queue";
import {
  closeTestDatabase,
  imapIdle,
  LineSocket,
  maildirFiles,
  newMailTestRoot,
  openTestDatabase,
  run,
  smtpSend,
  smtpTry,
  startMailSystem,
  startSecondMailHost,
  waitFor,
  type MailTestLayout,
} from "./testing/mail-daemons";
import { A, B, describeOnPostgres, imapInbox, placeOnHosts, PW, registerHosts } from "./testing/several-hosts";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 120_000 });

// PostgreSQL only (`npm run test:mail:pg`): several mail hosts need a networked database.
const describeOnPg = describeOnPostgres("mail host tests");

const DELAY_S = 300;
let db: Db;
let a: MailTestLayout;
let b: MailTestLayout;
/** The policy services' clock: the tests move it past greylisting's delay instead of waiting. */
let clockOffsetMs = 0;
const clock = () => Date.now() + clockOffsetMs;
const cli = (...argv: string[]) => runCommand(db, argv);

const message = (from: string, to: string, subject: string) =>
  `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\n\nHello.\n`;

async function pop3Count(port: number, user: string): Promise<number> {
  const s = await LineSocket.connect(port);
  try {
    await s.until(/^\+OK/);
    s.write(`USER ${user}\r\n`);
    await s.until(/^[+-]/);
    s.write(`PASS ${PW}\r\n`);
    const r = await s.until(/^[+-]/);
    if (!r.startsWith("+OK")) throw new Error(`POP3: ${r}`);
    s.write("STAT\r\n");
    const stat = await s.until(/^[+-]/);
    s.write("QUIT\r\n");
    return Number(/^\+OK (\d+)/.exec(stat)?.[1]);
  } finally {
    s.close();
  }
}

/** One message straight to an LMTP port (as another host's Postfix or Dovecot hands it over). */
async function lmtpDeliver(port: number, rcpt: string, subject: string): Promise<string> {
  const s = await LineSocket.connect(port);
  try {
    await s.until(/^220 /);
    s.write("LHLO client.test\r\n");
    await s.until(/^250 /);
    s.write("MAIL FROM:<lmtp@outside.test>\r\n");
    await s.until(/^\d{3} /);
    s.write(`RCPT TO:<${rcpt}>\r\n`);
    const r = await s.until(/^\d{3} /);
    if (!r.startsWith("250")) return r;
    s.write("DATA\r\n");
    await s.until(/^354/);
    s.write(`${message("lmtp@outside.test", rcpt, subject).replace(/\n/g, "\r\n")}\r\n.\r\n`);
    const done = await s.until(/^\d{3} /);
    s.write("QUIT\r\n");
    return done;
  } finally {
    s.close();
  }
}

const subjectsIn = (l: MailTestLayout, email: string) =>
  maildirFiles(l, email).map((f) => /^Subject: (.*)$/m.exec(fs.readFileSync(f, "utf8"))?.[1]);

describeOnPg("two mail hosts over one database", () => {
  let root: string;

  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-hosts-");
    db = await openTestDatabase(path.join(root, "db", "mail.db"));
    for (const d of [A, B]) await cli("domain", "add", d, "--postmaster-password", PW);
    await createAccount(db, await getDomainOrThrow(db, A), "ala", { password: PW });
    await createAccount(db, await getDomainOrThrow(db, B), "bea", { password: PW });
    await createAccount(db, await getDomainOrThrow(db, B), "grey", { password: PW, spam_greylist_enabled: 1 });
    await createAccount(db, await getDomainOrThrow(db, B), "full", { password: PW, capacity: 1 });
    await createAccount(db, await getDomainOrThrow(db, B), "smser", {
      password: PW,
      sms_phone_number_1: "sms-gw@outside.test",
      sms_send_to: 1,
    });
    // An account of domain b whose mailbox the operator keeps on host a.
    await createAccount(db, await getDomainOrThrow(db, B), "stays", { password: PW });
    const hostOptions = { greylistDelayS: DELAY_S, clock, sessionCheckMs: 1_000 };
    await registerHosts(db);
    a = await startMailSystem(root, { hostName: "a", ...hostOptions });
    b = await startSecondMailHost(root, a, "host-b", { hostName: "b", ...hostOptions });
    // What the operator runs (docs/mail-hosts.md): the hosts and where the others reach them, then the placement.
    await placeOnHosts(db, a, b);
    await cli("account", "set-mail-host", `stays@${B}`, "--mail-host", "a");
  });

  afterAll(async () => {
    await b?.sandbox.stop();
    await a?.sandbox.stop();
    await closeTestDatabase(db);
  });

  it("an account on host b receives mail sent to host a's MX and reads it through host a (IMAP, POP3); a's LMTP proxies to b", async () => {
    await smtpSend(
      a.ports.smtp,
      "someone@outside.test",
      [`bea@${B}`, `ala@${A}`, `stays@${B}`],
      message("someone@outside.test", `bea@${B}`, "via-mx-a"),
    );
    await waitFor(
      "the message in bea's mailbox on host b",
      () => subjectsIn(b, `bea@${B}`).includes("via-mx-a"),
      60_000,
    );
    await waitFor(
      "the message in ala's and stays' mailboxes on host a",
      () => subjectsIn(a, `ala@${A}`).includes("via-mx-a") && subjectsIn(a, `stays@${B}`).includes("via-mx-a"),
      60_000,
    );
    // Host a's Postfix handed it straight to b's LMTP (transport_maps), not to its own Dovecot.
    const postfixLog = () => fs.readFileSync(path.join(a.logs, "postfix.log"), "utf8");
    await waitFor("a's delivery record", () =>
      new RegExp(`to=<bea@${B}>, relay=[^,]*:(\\d+),.*status=sent`).exec(postfixLog()),
    );
    expect(new RegExp(`to=<bea@${B}>, relay=[^,]*:(\\d+),.*status=sent`).exec(postfixLog())![1]).toBe(
      String(b.ports.lmtp),
    );
    // Each mailbox lives on its own host only.
    expect(fs.existsSync(path.join(a.vmail, B, "bea"))).toBe(false);
    expect(fs.existsSync(path.join(b.vmail, A))).toBe(false);
    expect(fs.existsSync(path.join(b.vmail, B, "stays"))).toBe(false);

    // Read through host a: the message exists only on b, so a's Dovecot proxied the login.
    const viaA = await imapInbox(a.ports.imap, `bea@${B}`);
    expect(viaA.login).toMatch(/^a OK/m);
    expect(viaA.subjects).toEqual(["via-mx-a"]);
    expect(await pop3Count(a.ports.pop3, `bea@${B}`)).toBe(1);
    // And the other way round: stays@beta (on a) through b.
    expect((await imapInbox(b.ports.imap, `stays@${B}`)).subjects).toEqual(["via-mx-a"]);

    // A's LMTP takes b's recipient and b stores it.
    expect(await lmtpDeliver(a.ports.lmtp, `bea@${B}`, "via-lmtp-a")).toMatch(/^250 /);
    expect(subjectsIn(b, `bea@${B}`)).toContain("via-lmtp-a");
    expect(fs.existsSync(path.join(a.vmail, B, "bea"))).toBe(false);

    // The usage written back is b's count (two messages), not overwritten by a.
    await waitFor("bea's usage from host b", async () => {
      const [row] = await db
        .select()
        .from(accounts)
        .where(eq(accounts.email, `bea@${B}`));
      return row!.usageMessages === 2;
    });
  });

  it("a blocked account's sessions end on the host holding its mailbox and through the other host's proxy; another's stay", async () => {
    const domainB = await getDomainOrThrow(db, B);
    await createAccount(db, domainB, "kicked", { password: PW });
    const direct = await imapIdle(b.ports.imap, `kicked@${B}`, PW);
    // Through a: a's Dovecot proxies the session to b, which holds the mailbox.
    const proxied = await imapIdle(a.ports.imap, `kicked@${B}`, PW);
    const staysOnA = await imapIdle(a.ports.imap, `ala@${A}`, PW);
    const staysOnB = await imapIdle(a.ports.imap, `bea@${B}`, PW);
    const postmaster = { account: await getAccountOrThrow(db, domainB, "postmaster"), domain: B, isPostmaster: true };
    await updateAccounts(db, postmaster, domainB, ["kicked"], { blocked: 1 });
    // Both hosts check every second here (5 s in production).
    await Promise.all(
      [direct, proxied].map(async ({ s, closed }) => {
        await s.until(/^\* BYE /, 10_000);
        await closed;
      }),
    );
    for (const { s } of [staysOnA, staysOnB]) {
      s.write("DONE\r\n");
      await s.until(/^c OK/);
      s.write("d LOGOUT\r\n");
      await s.until(/^d OK/);
      s.close();
    }
    // Domain b's accounts are listed whole by the move below.
    await deleteAccounts(db, domainB, ["kicked"]);
  });

  it("a full mailbox on host b is refused at host a's RCPT (552): a reads its usage from the database", async () => {
    const to = `full@${B}`;
    const big = `${message("someone@outside.test", to, "big")}${Array.from({ length: 1100 * 16 }, (_, i) => `${String(i).padStart(6, "0")} ${"x".repeat(56)}`).join("\n")}\n`;
    await smtpSend(a.ports.smtp, "someone@outside.test", [to], big);
    await waitFor("the big message on host b", () => subjectsIn(b, to).includes("big"), 60_000);
    await waitFor(
      "usage written back by host b",
      async () => (await db.select().from(accounts).where(eq(accounts.email, to)))[0]!.usagePercent >= 95,
    );
    await expect(
      smtpSend(a.ports.smtp, "someone@outside.test", [to], message("someone@outside.test", to, "second")),
    ).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
    expect(fs.existsSync(path.join(a.vmail, B, "full"))).toBe(false);
  });

  it("housekeeping on each host handles only the mailboxes it holds, and opens none that never got mail", async () => {
    for (const email of [`ala@${A}`, `stays@${B}`, `bea@${B}`, `full@${B}`])
      await waitFor(`${email}'s messages counted`, async () => {
        const [row] = await db.select().from(accounts).where(eq(accounts.email, email));
        return row!.usageMessages > 0;
      });
    const ra = await runHousekeeping(db, { doveadm: ["doveadm", "-c", a.dovecotConf], hostName: "a" });
    const rb = await runHousekeeping(db, { doveadm: ["doveadm", "-c", b.dovecotConf], hostName: "b" });
    expect(ra.failed).toEqual([]);
    expect(rb.failed).toEqual([]);
    // Trash is expunged after 30 days by default, in the mailboxes that hold mail: ala and stays on a; bea and full
    // on b. The postmasters, grey and smser never got any: their Maildirs are not made by opening them.
    expect(ra.expunged).toContain("Trash: savedbefore 30d, 2 account(s)");
    expect(rb.expunged).toContain("Trash: savedbefore 30d, 2 account(s)");
    expect(fs.existsSync(path.join(a.vmail, B, "bea"))).toBe(false);
    for (const name of ["grey", "smser", "postmaster"]) expect(fs.existsSync(path.join(b.vmail, B, name))).toBe(false);
    expect(fs.existsSync(path.join(a.vmail, A, "postmaster"))).toBe(false);
  });

  it("a sender greylisted through host a's MX is accepted through host b's after the delay", async () => {
    const to = `grey@${B}`;
    const first = await smtpTry(
      a.ports.smtp,
      "grey-sender@outside.test",
      [to],
      message("grey-sender@outside.test", to, "grey-1"),
    );
    expect(first.refused.map((r) => r.code)).toEqual([450]);
    // Half the delay later b defers it too, for the half left: the triplet is the one a saw (a host's own state
    // would start a new full wait here, and the retry below would be deferred again).
    clockOffsetMs += (DELAY_S / 2) * 1000;
    const early = await smtpTry(
      b.ports.smtp,
      "grey-sender@outside.test",
      [to],
      message("grey-sender@outside.test", to, "grey-1"),
    );
    expect(early.refused.map((r) => r.code)).toEqual([450]);
    const left = Number(/try again in (\d+) s/.exec(early.refused[0]!.response)?.[1]);
    expect(left).toBeGreaterThan(DELAY_S / 2 - 30);
    expect(left).toBeLessThanOrEqual(DELAY_S / 2);
    clockOffsetMs += (DELAY_S / 2 + 1) * 1000;
    const retry = await smtpTry(
      b.ports.smtp,
      "grey-sender@outside.test",
      [to],
      message("grey-sender@outside.test", to, "grey-2"),
    );
    expect(retry.refused).toEqual([]);
    expect(retry.accepted).toEqual([to]);
    await waitFor("grey-2 in grey's mailbox on host b", () => subjectsIn(b, to).includes("grey-2"), 60_000);
  });
  it("the SMS queue: each host's worker sends the notifications of the mailboxes it holds only", async () => {
    const config = loadSmsConfig(undefined);
    const [account] = await db
      .select()
      .from(accounts)
      .where(eq(accounts.email, `smser@${B}`));
    // Due in 2100: the sandboxes' own workers (which run on today's clock) leave the row to the calls below.
    const due = new Date("2100-01-01T00:00:00Z");
    const [row] = await enqueueNewMail(db, config, account!, { subject: "sms-test", body: "" }, due);
    expect(row!.status).toBe("pending");
    const later = new Date(due.getTime() + 60_000);
    expect(await processSmsQueue(db, config, { smtp: { host: "127.0.0.1", port: a.ports.internal } }, later, "a")).toBe(
      0,
    );
    expect((await db.select().from(smsQueue).where(eq(smsQueue.id, row!.id)))[0]!.status).toBe("pending");
    expect(await processSmsQueue(db, config, { smtp: { host: "127.0.0.1", port: b.ports.internal } }, later, "b")).toBe(
      1,
    );
    expect((await db.select().from(smsQueue).where(eq(smsQueue.id, row!.id)))[0]!.status).toBe("sent");
  });

  it("moving a domain from host b to host a: doveadm sync, the switch, a last sync; nothing lost, both hosts serve it", async () => {
    // An account of the domain placed on the old host by itself, with mail there: the switch leaves it on b.
    await createAccount(db, await getDomainOrThrow(db, B), "keeps", { password: PW });
    await cli("account", "set-mail-host", `keeps@${B}`, "--mail-host", "b");
    await smtpSend(
      a.ports.smtp,
      "someone@outside.test",
      [`keeps@${B}`],
      message("someone@outside.test", `keeps@${B}`, "keeps-on-b"),
    );
    await waitFor("keeps-on-b on host b", () => subjectsIn(b, `keeps@${B}`).includes("keeps-on-b"), 60_000);
    // What docs/mail-hosts.md ("Moving a domain") says to run, on the new host.
    const users = path.join(root, "move-users");
    fs.writeFileSync(users, `${await cli("mailserver", "host", "accounts", "b", "--domain", B, "--by-domain")}\n`);
    expect(fs.readFileSync(users, "utf8").split("\n").filter(Boolean)).toEqual([
      `bea@${B}`,
      `full@${B}`,
      `grey@${B}`,
      `postmaster@${B}`,
      `smser@${B}`,
    ]);
    const sync = (...flags: string[]) =>
      run("doveadm", ["-c", a.dovecotConf, "sync", ...flags, "-F", users, `tcp:127.0.0.1:${b.ports.doveadm}`]);
    sync();
    expect(subjectsIn(a, `bea@${B}`).sort()).toEqual(subjectsIn(b, `bea@${B}`).sort());
    // The account that stays is not copied: the doc's list had it (every account on b), and its copy on a stayed
    // there unused.
    expect(fs.existsSync(path.join(a.vmail, B, "keeps"))).toBe(false);
    // Mail still arriving for the old host before the switch is picked up by the last sync.
    await smtpSend(
      a.ports.smtp,
      "someone@outside.test",
      [`bea@${B}`],
      message("someone@outside.test", `bea@${B}`, "before-switch"),
    );
    await waitFor("before-switch on host b", () => subjectsIn(b, `bea@${B}`).includes("before-switch"), 60_000);
    await cli("domain", "set-mail-host", B, "--mail-host", "a");
    // One message on a after the switch, before the last sync: each host has one new message under the same UID,
    // and the folders' states are alike. The incremental sync took them as equal and left before-switch on b
    // alone (the rehearsal of docs/mail-hosts.md); the doc's last sync is full (-f).
    expect(await lmtpDeliver(a.ports.lmtp, `bea@${B}`, "after-switch-on-a")).toMatch(/^250 /);
    sync("-f");
    expect(subjectsIn(a, `bea@${B}`).sort()).toEqual(["after-switch-on-a", "before-switch", "via-lmtp-a", "via-mx-a"]);
    // Now a holds the domain: b's MX hands its mail to a, b's IMAP proxies to a.
    await smtpSend(
      b.ports.smtp,
      "someone@outside.test",
      [`bea@${B}`],
      message("someone@outside.test", `bea@${B}`, "after-switch"),
    );
    await waitFor("after-switch on host a", () => subjectsIn(a, `bea@${B}`).includes("after-switch"), 60_000);
    expect(subjectsIn(b, `bea@${B}`)).not.toContain("after-switch");
    // Still on b, where its mail is, and not copied to a by the last sync either.
    expect(await cli("mailserver", "host", "accounts", "b", "--domain", B)).toBe(`keeps@${B}`);
    expect(fs.existsSync(path.join(a.vmail, B, "keeps"))).toBe(false);
    expect(subjectsIn(b, `keeps@${B}`)).toEqual(["keeps-on-b"]);
    expect((await imapInbox(b.ports.imap, `bea@${B}`)).subjects.sort()).toEqual([
      "after-switch",
      "after-switch-on-a",
      "before-switch",
      "via-lmtp-a",
      "via-mx-a",
    ]);
  });
});
