// The account record in real mail on the sandbox (`mailserver sandbox`, lib/mailserver/sandbox): mail logins move last_auth_*, over-quota
// mail is refused at RCPT, the usage warning arrives at the crossing delivery, SMS notifications go out by e-mail and
// HTTP, forwards leave with an SRS sender (the sandbox's postsrsd), mail from hosted domains is DKIM-signed by its
// Rspamd. Debian's Postfix, Dovecot, postsrsd and Rspamd, configured by the same generator as `mailserver config`;
// mail for other providers lands in the sandbox's outbound Maildir, the DKIM record is published on its loopback
// DNS, and the SMS company's HTTP gateway is a local stand-in speaking HTTP.
import { Resolver } from "node:dns/promises";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { accounts, smsQueue } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import { accountRecord, createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import type { Principal } from "@/lib/server/caller/auth";
import { createAlias } from "@/lib/server/resources/aliases";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { checkDkimDns, currentDkimKey, dkimRecord } from "./dkim";
import { readDnsRecords, writeDnsRecords } from "./sandbox/dns-server";
import { runHousekeeping } from "./housekeeping";
import { maildirNew } from "./sandbox/outbound-sink";
import { decryptSmsPassword } from "./sms/secret";
import {
  closeTestDatabase,
  dovecotConf,
  eventsLogMark,
  LineSocket,
  mailTestsOnPostgres,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  settleMail,
  smtpSend as smtpSendOn,
  startMailSystem,
  waitFor,
  type MailTestLayout,
} from "./testing/mail-daemons";
import { startSmsGateway } from "./testing/sms-gateway";
// mailauth has no type declarations: its dkimVerify(message, { resolver }) -> { results: [{ status, ... }] }.
const { dkimVerify } = createRequire(import.meta.url)("mailauth/lib/dkim/verify") as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{
    results: { signingDomain: string; selector: string; status: { result: string; comment?: string } }[];
  }>;
};

vi.mock("server-only", () => ({}));
// Deliveries, quota writes and Rspamd take seconds each, more on a busy host.
vi.setConfig({ testTimeout: 120_000 });
process.env.SMS_SECRET_KEY = "a".repeat(64);

const missing = missingMailPackages();
if (missing.length) console.warn(`delivery tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

const A = "alpha.test";
const PW = "Konto-pass1";
let root: string;
let l: MailTestLayout;
let db: Db;
let postmaster: Principal;
let gateway: Awaited<ReturnType<typeof startSmsGateway>>;

const cli = (...argv: string[]) => runCommand(db, argv);
const alpha = () => getDomainOrThrow(db, A);
const row = async (name: string) =>
  (
    await db
      .select()
      .from(accounts)
      .where(eq(accounts.email, `${name}@${A}`))
  )[0]!;
const set = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, postmaster, await alpha(), [name], body);
const smtpSend = (from: string, to: string[], msg: string) => smtpSendOn(l.ports.smtp, from, to, msg);

interface OutboundMail {
  from: string;
  to: string[];
  raw: string;
}
/** What left for other providers: the sandbox's outbound Maildir, envelope from its X-Sandbox-Envelope-* headers. */
function outbound(): OutboundMail[] {
  return maildirNew(l.outbound)
    .map((f) => ({ f, t: fs.statSync(f).mtimeMs }))
    .sort((a, b) => a.t - b.t || a.f.localeCompare(b.f))
    .map(({ f }) => {
      const file = fs.readFileSync(f, "utf8");
      const from = /^X-Sandbox-Envelope-From: <([^>]*)>\r?\n/m.exec(file)![1]!;
      const to = [.../^X-Sandbox-Envelope-To: (.*)\r?\n/m.exec(file)![1]!.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
      // The message itself, as the receiving provider would read it (the sink's envelope lines first).
      const raw = file.replace(/^X-Sandbox-Envelope-From: .*\r?\nX-Sandbox-Envelope-To: .*\r?\n/, "");
      return { from, to, raw };
    });
}

function message(from: string, to: string, subject: string, body = "Treść testowa.\n", extraHeaders = "") {
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extraHeaders}\n${body}`;
}
const filler = (kb: number) =>
  Array.from({ length: kb * 16 }, (_, i) => `${String(i).padStart(6, "0")} ${"x".repeat(56)}`).join("\n") + "\n";

/** The inbox settle() sends its markers to, and whose logins show the mail event service has moved on. */
const MARKER = `znacznik@${A}`;
const settle = () => settleMail(l, MARKER);

async function imapLogin(user: string, password: string) {
  const s = await LineSocket.connect(l.ports.imap);
  try {
    await s.until(/^\* OK/);
    s.write(`a LOGIN "${user}" "${password}"\r\n`);
    const r = await s.until(/^a /);
    for (const [i, cmd] of ["SELECT INBOX", "NOOP", "STATUS INBOX (MESSAGES)", "NOOP"].entries()) {
      s.write(`c${i} ${cmd}\r\n`);
      await s.until(new RegExp(`^c${i} `));
    }
    s.write("z LOGOUT\r\n");
    return /^a OK/m.test(r);
  } finally {
    s.close();
  }
}

async function pop3Login(user: string, password: string) {
  const s = await LineSocket.connect(l.ports.pop3);
  try {
    await s.until(/^\+OK/);
    s.write(`USER ${user}\r\n`);
    await s.until(/^[+-]/);
    s.write(`PASS ${password}\r\n`);
    const r = await s.until(/^[+-]/);
    s.write("STAT\r\n");
    await s.until(/^[+-]/);
    s.write("QUIT\r\n");
    return r.startsWith("+OK");
  } finally {
    s.close();
  }
}

/** Sends through the sandbox's submission port with SMTP AUTH (Dovecot SASL). */
async function smtpAuthSend(user: string, password: string, to: string, subject = "authenticated") {
  const t = nodemailer.createTransport({
    host: "127.0.0.1",
    port: l.ports.submission,
    secure: false,
    ignoreTLS: true,
    auth: { user, pass: password },
  });
  try {
    await t.sendMail({ from: user, to, subject, text: "sent with SMTP AUTH" });
  } finally {
    t.close();
  }
}

const smsRows = async (name: string) =>
  db
    .select()
    .from(smsQueue)
    .where(eq(smsQueue.accountId, (await row(name)).id));

describe.skipIf(missing.length > 0)(
  "delivery on the sandbox: logins, quota, usage warning, SMS, SRS, DKIM (real daemons)",
  () => {
    beforeAll(async () => {
      root = newMailTestRoot("mailadmin-delivery-");
      const dbPath = path.join(root, "db", "mail.db");
      process.env.DATABASE_PATH = dbPath;
      db = await openTestDatabase(dbPath);
      await cli("domain", "add", A, "--postmaster-password", "Admin-pass1");
      await cli("domain", "add", "beta.test", "--postmaster-password", "Admin-pass1");
      postmaster = { account: await getAccountOrThrow(db, await alpha(), "postmaster"), domain: A, isPostmaster: true };
      const d = await alpha();
      await createAccount(db, d, "jan", { password: PW });
      await createAccount(db, d, "znacznik", { password: PW, spam_enabled: 0 });
      await createAccount(db, d, "pelny", { password: PW, capacity: 1, usage_notification_level: 0 });
      await createAlias(db, d, "pelny-alias", { target: `pelny@${A}` });
      await createAccount(db, d, "prawie", { password: PW, capacity: 1, usage_notification_level: 0 });
      // Filled while it keeps mail, then made forward-only (the quota test).
      await createAccount(db, d, "tylkofwd", { password: PW, capacity: 1, usage_notification_level: 0 });
      await createAccount(db, d, "ola", { password: PW, capacity: 1, usage_notification_level: 50 });
      await createAccount(db, d, "przepelniony", { password: PW, capacity: 1, usage_notification_level: 90 });
      // In this order (housekeeping walks accounts by id): the first one's warning cannot be saved.
      await createAccount(db, d, "wadliwy", { password: PW, capacity: 1, usage_notification_level: 30 });
      await createAccount(db, d, "nastepny", { password: PW, capacity: 1, usage_notification_level: 30 });
      await createAccount(db, d, "fwd", { password: PW, forwards: ["daleko@outside.test"], keep_mail: 0 });
      await createAccount(db, d, "smsmail", {
        password: PW,
        sms_phone_number_1: "bramka@outside.test",
        sms_send_to: 1,
        sms_cnt: 1,
      });
      await createAccount(db, d, "smsop", {
        password: PW,
        sms_phone_number_1: "+48601234567",
        sms_operator_1: 21,
        sms_send_to: 1,
        sms_cnt: 0,
      });
      await createAccount(db, d, "smsauto", {
        password: PW,
        sms_phone_number_1: "601234567",
        sms_operator_1: 0,
        sms_send_to: 1,
        sms_cnt: 2,
      });
      await createAccount(db, d, "smshttp", {
        password: PW,
        sms_phone_number_1: "501234567",
        sms_send_to: 0,
        sms_cnt: 3,
        sms_login_1: "klient1",
        sms_password_1: "Bramka-tajne1",
        sms_phone_number_2: "kopia@outside.test",
      });
      await createAccount(db, d, "smsretry", {
        password: PW,
        sms_phone_number_1: "791000111",
        sms_send_to: 0,
        sms_cnt: 0,
        sms_login_1: "k2",
        sms_password_1: "p2",
      });
      await createAccount(db, d, "smsrate", {
        password: PW,
        sms_phone_number_1: "limit@outside.test",
        sms_send_to: 1,
        sms_cnt: 0,
      });
      await createAccount(db, d, "moder", {
        password: PW,
        sms_phone_number_1: "moder-sms@outside.test",
        sms_send_to: 1,
        sms_cnt: 0,
        spam_hits: 5,
        spam_rule: "move",
      });
      await createMailingList(db, d, "zarzad", { privacy_mode: 1, accounts: [`jan@${A}`], moderators: [`moder@${A}`] });
      // Counts the writes of last_auth_* (no write per command, nor per login on the same day from the same address).
      const statements = mailTestsOnPostgres()
        ? [
            "CREATE TABLE test_auth_writes (email TEXT)",
            `CREATE FUNCTION test_auth_writes() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
             INSERT INTO test_auth_writes VALUES (NEW.email); RETURN NEW; END $$`,
            `CREATE TRIGGER test_auth_writes AFTER UPDATE OF last_auth_date, last_auth_ip ON accounts
             FOR EACH ROW EXECUTE FUNCTION test_auth_writes()`,
          ]
        : [
            "CREATE TABLE test_auth_writes (email TEXT)",
            `CREATE TRIGGER test_auth_writes AFTER UPDATE OF last_auth_date, last_auth_ip ON accounts BEGIN
             INSERT INTO test_auth_writes VALUES (new.email); END`,
          ];
      for (const statement of statements) await dialectOf(db).run(db, sql.raw(statement));

      // The provider's SMS configuration (SMS_CONFIG, read by the sandbox's events component): two operators'
      // e-mail gateways on outside domains (so into the outbound Maildir) and the HTTP gateway stand-in.
      gateway = await startSmsGateway();
      const smsConfigFile = path.join(root, "sms.json");
      fs.writeFileSync(
        smsConfigFile,
        JSON.stringify({
          operators: {
            "11": { email: "{msisdn}@plus-sms.outside.test" },
            "21": { email: "{msisdn}@era-sms.outside.test" },
          },
          http: {
            url: `http://127.0.0.1:${gateway.port}/send?client={login}`,
            method: "POST",
            format: "form",
            fields: { to: "{msisdn}", password: "{password}", text: "{text}" },
            successMatch: "OK",
          },
          retryDelaysSeconds: [0.3],
          rateLimitPerHour: 3,
        }),
      );
      process.env.SMS_CONFIG = smsConfigFile;
      l = await startMailSystem(root, { srsDomain: A });
      // The DKIM record, published where the tests' resolver (and the panel's check) asks: the sandbox's DNS.
      await publishDkim();
    }, 300_000);

    afterAll(async () => {
      await l?.sandbox?.stop();
      await gateway?.close();
      await closeTestDatabase(db);
      delete process.env.SMS_CONFIG;
      if (root && !process.env.KEEP_MAIL_TEST_DIR)
        fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 300 });
    });

    /** Writes alpha.test's current DKIM TXT record into the sandbox's DNS (records.json). */
    async function publishDkim() {
      const r = dkimRecord(A, (await currentDkimKey(db, (await alpha()).id))!);
      writeDnsRecords(l.dnsRecords, { ...readDnsRecords(l.dnsRecords), [r.name]: { TXT: [r.value] } });
      return r;
    }

    describe("last login from the mail server", () => {
      const today = new Date().toISOString().slice(0, 10);
      const reset = () =>
        db
          .update(accounts)
          .set({ lastAuthDate: "", lastAuthIp: "" })
          .where(eq(accounts.email, `jan@${A}`));
      const moved = () =>
        waitFor(
          "last_auth_* to move",
          async () => {
            const jan = await row("jan");
            return jan.lastAuthDate === today && jan.lastAuthIp === "127.0.0.1";
          },
          5_000,
        );
      /** A later login of the marker account, recorded: the mail event service has handled the reports before it. */
      const markerLogin = async () => {
        await db.update(accounts).set({ lastAuthDate: "", lastAuthIp: "" }).where(eq(accounts.email, MARKER));
        expect(await imapLogin(MARKER, PW)).toBe(true);
        await waitFor("the marker's login recorded", async () => (await row("znacznik")).lastAuthDate === today, 5_000);
      };

      it("IMAP login sets last_auth_date and last_auth_ip", async () => {
        await reset();
        expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
        await moved();
      });

      it("POP3 login sets them", async () => {
        await reset();
        expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
        await moved();
      });

      it("SMTP AUTH (Dovecot SASL) sets them", async () => {
        await reset();
        await smtpAuthSend(`jan@${A}`, PW, `ola@${A}`);
        await moved();
        await settle();
      });

      it("a failed login does not, and repeated logins and commands write nothing more", async () => {
        await reset();
        expect(await imapLogin(`jan@${A}`, "wrong-password")).toBe(false);
        await markerLogin();
        expect((await row("jan")).lastAuthDate).toBe("");
        const writes = async () =>
          (
            await dialectOf(db).all<{ n: number }>(
              db,
              sql`SELECT count(*) AS n FROM test_auth_writes WHERE email = ${`jan@${A}`}`,
            )
          )[0]!;
        expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
        await moved();
        const after = (await writes()).n;
        for (let i = 0; i < 3; i++) expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
        expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
        await markerLogin();
        expect((await writes()).n).toBe(after);
      });
    });

    describe("quota", () => {
      it("a second message to a full mailbox is refused at RCPT (552), on the MX and the submission port, and nothing bounces", async () => {
        await smtpSend(
          "nadawca@far.test",
          [`pelny@${A}`],
          message("nadawca@far.test", `pelny@${A}`, "duza", filler(1100)),
        );
        await settle();
        expect(readMessages(l, `pelny@${A}`).length).toBe(1);
        await waitFor("usage written back", async () => (await row("pelny")).usagePercent >= 95);
        const before = outbound().length;
        await expect(
          smtpSend("nadawca@far.test", [`pelny@${A}`], message("nadawca@far.test", `pelny@${A}`, "druga")),
        ).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
        // An authenticated sender (submission port, SASL) is refused at RCPT too.
        await expect(smtpAuthSend(`jan@${A}`, PW, `pelny@${A}`, "trzecia")).rejects.toMatchObject({
          code: "EENVELOPE",
          responseCode: 552,
        });
        await settle();
        expect(readMessages(l, `pelny@${A}`).length).toBe(1);
        expect(
          outbound()
            .slice(before)
            .filter((m) => m.to.includes("nadawca@far.test") || m.to.includes(`jan@${A}`)),
        ).toEqual([]);
        expect(
          readMessages(l, `jan@${A}`).filter((m) => m.includes("trzecia") || /Undelivered|Returned/i.test(m)),
        ).toEqual([]);
      });
    });

    describe("quota: refused in the SMTP session, or not at all", () => {
      it("an alias of a full mailbox is refused at RCPT (552) like the mailbox itself, nothing bounces", async () => {
        await waitFor("pelny full", async () => (await row("pelny")).usagePercent >= 95);
        const before = outbound().length;
        await expect(
          smtpSend(
            "nadawca@far.test",
            [`pelny-alias@${A}`],
            message("nadawca@far.test", `pelny-alias@${A}`, "przez-alias"),
          ),
        ).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
        await settle();
        expect(
          outbound()
            .slice(before)
            .filter((m) => m.to.includes("nadawca@far.test")),
        ).toEqual([]);
      });

      it("a message that does not fit a nearly full mailbox, sent without SIZE=, is refused at the end of DATA (5xx), nothing bounces", async () => {
        await smtpSend(
          "nadawca@far.test",
          [`prawie@${A}`],
          message("nadawca@far.test", `prawie@${A}`, "pierwsza", filler(700)),
        );
        await settle();
        await waitFor("usage written back", async () => (await row("prawie")).usagePercent >= 60);
        const before = outbound().length;
        // smtpSend announces no SIZE=: only the end of DATA knows the size.
        await expect(
          smtpSend(
            "nadawca@far.test",
            [`prawie@${A}`],
            message("nadawca@far.test", `prawie@${A}`, "za-duza", filler(600)),
          ),
        ).rejects.toThrow(new RegExp(`^SMTP: 5\\d\\d .*mailbox of prawie@${A.replace(/\./g, "\\.")} is full`, "m"));
        await settle();
        expect(readMessages(l, `prawie@${A}`).filter((m) => m.includes("za-duza"))).toEqual([]);
        expect(
          outbound()
            .slice(before)
            .filter((m) => m.to.includes("nadawca@far.test")),
        ).toEqual([]);
        // A message that fits is still taken.
        await smtpSend("nadawca@far.test", [`prawie@${A}`], message("nadawca@far.test", `prawie@${A}`, "mala"));
        await waitFor("the small message", () => readMessages(l, `prawie@${A}`).some((m) => m.includes("mala")));
      });

      it("a forward-only account (keep_mail 0) takes and forwards mail whatever its quota", async () => {
        await smtpSend(
          "nadawca@far.test",
          [`tylkofwd@${A}`],
          message("nadawca@far.test", `tylkofwd@${A}`, "wypelnia", filler(1100)),
        );
        await settle();
        await waitFor("tylkofwd full", async () => (await row("tylkofwd")).usagePercent >= 95);
        await set("tylkofwd", { forwards: ["dalej@outside.test"], keep_mail: 0 });
        await smtpSend(
          "nadawca@far.test",
          [`tylkofwd@${A}`],
          message("nadawca@far.test", `tylkofwd@${A}`, "przekazana"),
        );
        const forwarded = await waitFor(
          "the forward",
          () => outbound().find((m) => m.to.includes("dalej@outside.test") && m.raw.includes("przekazana")),
          30_000,
        );
        expect(forwarded.raw).toContain("Subject: przekazana");
        await settle();
        expect(outbound().filter((m) => m.to.includes("nadawca@far.test"))).toEqual([]);
      });
    });

    describe("usage warning at delivery", () => {
      const warnings = () => readMessages(l, `ola@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));
      /** Dovecot's report of the crossing a delivery made, answered by the mail event service (its log line). */
      const crossingAnswered = (mark: ReturnType<typeof eventsLogMark>) =>
        mark.wait("ola's crossing answered", new RegExp(`quota-warning ola@${A} \\d+%: `));

      it("comes with the delivery that reaches the level, not before, and not again within 24 h", async () => {
        let mark = eventsLogMark(l);
        await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "trzydziesci", filler(300)));
        await settle();
        await crossingAnswered(mark);
        expect(warnings()).toHaveLength(0);
        await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "szescdziesiat", filler(300)));
        await waitFor("the warning", () => warnings().length === 1, 15_000);
        expect(warnings()[0]).toMatch(/Subject: =\?UTF-8\?B\?/);
        expect(Buffer.from(/Subject: =\?UTF-8\?B\?([^?]+)\?=/.exec(warnings()[0]!)![1]!, "base64").toString()).toMatch(
          /^Skrzynka zajęta w (5|6)\d%$/,
        );
        expect((await row("ola")).usageWarnedAt).not.toBe("");
        mark = eventsLogMark(l);
        await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "osiemdziesiat", filler(200)));
        await settle();
        await crossingAnswered(mark);
        expect(warnings()).toHaveLength(1);
        // A day later, the next crossing warns again.
        await db
          .update(accounts)
          .set({ usageWarnedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() })
          .where(eq(accounts.email, `ola@${A}`));
        await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "dziewiecdziesiat", filler(100)));
        await waitFor("the second warning", () => warnings().length === 2, 15_000);
      });
    });

    describe("usage warning past 100%, and one account's failure in the daily run", () => {
      const warningsOf = (name: string) =>
        readMessages(l, `${name}@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));

      it("a delivery that takes the mailbox over its capacity (Dovecot's grace) still brings the warning", async () => {
        await smtpSend(
          "a@far.test",
          [`przepelniony@${A}`],
          message("a@far.test", `przepelniony@${A}`, "ponad", filler(1100)),
        );
        await waitFor("usage written back", async () => (await row("przepelniony")).usagePercent > 100);
        // The warning's save is not held to the quota: before, it failed with "Quota exceeded" and was lost.
        await waitFor("the warning", () => warningsOf("przepelniony").length === 1, 15_000);
      });

      it("housekeeping warns the others when one account's warning cannot be saved, and reports that one", async () => {
        for (const name of ["wadliwy", "nastepny"]) {
          await smtpSend("a@far.test", [`${name}@${A}`], message("a@far.test", `${name}@${A}`, "polowa", filler(400)));
          await waitFor(`${name}'s usage`, async () => (await row(name)).usagePercent >= 30);
        }
        // The delivery's warnings came; a day later the daily run is due to repeat them.
        await waitFor(
          "the delivery's warnings",
          () => warningsOf("wadliwy").length === 1 && warningsOf("nastepny").length === 1,
          15_000,
        );
        const maildir = path.join(l.vmail, A, "wadliwy", "Maildir");
        fs.chmodSync(maildir, 0);
        try {
          const report = await runHousekeeping(db, {
            doveadm: ["doveadm", "-c", dovecotConf(l)],
            now: new Date(Date.now() + 25 * 3_600_000),
          });
          // doveadm's expunge runs name the account too (it goes on past it); its warning is the one not saved.
          expect(report.failed.filter((f) => f.startsWith("usage warning"))).toEqual([
            expect.stringContaining(`usage warning wadliwy@${A}: `),
          ]);
          expect(
            report.failed
              .filter((f) => !f.startsWith("usage warning"))
              .every((f) => f.startsWith("doveadm ") && f.includes(`wadliwy@${A}`)),
          ).toBe(true);
          expect(report.warned).toContainEqual(expect.stringMatching(new RegExp(`^nastepny@`)));
        } finally {
          fs.chmodSync(maildir, 0o700);
        }
        expect(warningsOf("nastepny")).toHaveLength(2);
        expect(warningsOf("wadliwy")).toHaveLength(1);
        // Given back: the next run (a day after the claim it did not use) tries it again.
        const report = await runHousekeeping(db, {
          doveadm: ["doveadm", "-c", dovecotConf(l)],
          now: new Date(Date.now() + 26 * 3_600_000),
        });
        expect(report.failed).toEqual([]);
        expect(warningsOf("wadliwy")).toHaveLength(2);
      });
    });

    describe("SMS notifications", () => {
      const sentTo = (address: string) => outbound().filter((m) => m.to.includes(address));
      const text = (raw: string) =>
        raw
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join("\n")
          .trim();

      it("the record never shows the SMS password; it is stored encrypted", async () => {
        const r = await accountRecord(db, await alpha(), await row("smshttp"));
        expect(r.sms_password_1).toBe("");
        expect((await row("smshttp")).smsPassword1).toMatch(/^enc1:/);
        expect(decryptSmsPassword((await row("smshttp")).smsPassword1)).toBe("Bramka-tajne1");
        // Sending the record back whole keeps the stored password.
        const { aliases: _aliases, ...back } = r;
        void _aliases;
        await set("smshttp", back);
        expect(decryptSmsPassword((await row("smshttp")).smsPassword1)).toBe("Bramka-tajne1");
      });

      it("sms_send_to 1 with an e-mail address, sms_cnt 1: one e-mail with subject and body", async () => {
        await smtpSend(
          "nadawca@far.test",
          [`smsmail@${A}`],
          message("nadawca@far.test", `smsmail@${A}`, "Zażółć gęślą jaźń", "Pierwsza linia.\nDruga linia.\n"),
        );
        await waitFor("the notification", () => sentTo("bramka@outside.test").length === 1, 20_000);
        expect(text(sentTo("bramka@outside.test")[0]!.raw)).toBe("Zazolc gesla jazn: Pierwsza linia. Druga linia.");
        expect((await smsRows("smsmail")).map((r) => r.status)).toEqual(["sent"]);
      });

      it("a number with an operator code (21) goes to that operator's gateway, sms_cnt 0: the subject only", async () => {
        await smtpSend(
          "nadawca@far.test",
          [`smsop@${A}`],
          message("nadawca@far.test", `smsop@${A}`, "Tylko temat", "ciało, którego nie ma w SMS\n"),
        );
        await waitFor("the notification", () => sentTo("48601234567@era-sms.outside.test").length === 1, 20_000);
        expect(text(sentTo("48601234567@era-sms.outside.test")[0]!.raw)).toBe("Tylko temat");
      });

      it("operator 0 is detected from the prefix (601: Plus), sms_cnt 2: two SMS of at most 160 characters", async () => {
        const body = Array.from({ length: 60 }, (_, i) => `słowo${i}`).join(" ");
        await smtpSend(
          "nadawca@far.test",
          [`smsauto@${A}`],
          message("nadawca@far.test", `smsauto@${A}`, "Długi list", body),
        );
        await waitFor("two SMS e-mails", () => sentTo("48601234567@plus-sms.outside.test").length === 2, 20_000);
        const parts = sentTo("48601234567@plus-sms.outside.test").map((m) => text(m.raw).replace(/=\r?\n/g, ""));
        for (const p of parts) expect(p.length).toBeLessThanOrEqual(160);
        expect(parts[0]).toMatch(/^Dlugi list: slowo0 slowo1/);
        expect(parts[1]).toMatch(/^slowo\d+/);
      });

      it("sms_send_to 0: the HTTP gateway with the account's login and password, sms_cnt 3: three SMS; the second number by e-mail", async () => {
        const body = Array.from({ length: 120 }, (_, i) => `w${i}`).join(" ");
        await smtpSend(
          "nadawca@far.test",
          [`smshttp@${A}`],
          message("nadawca@far.test", `smshttp@${A}`, "Przez bramkę", body),
        );
        await waitFor(
          "three gateway requests",
          () => gateway.requests.filter((r) => r.fields.to === "48501234567").length === 3,
          20_000,
        );
        const reqs = gateway.requests.filter((r) => r.fields.to === "48501234567");
        expect(
          reqs.every(
            (r) => r.url === "/send?client=klient1" && r.fields.password === "Bramka-tajne1" && r.method === "POST",
          ),
        ).toBe(true);
        expect(reqs.every((r) => r.fields.text!.length <= 160)).toBe(true);
        expect(reqs[0]!.fields.text).toMatch(/^Przez bramke: w0 w1/);
        await waitFor("the second number's e-mail", () => sentTo("kopia@outside.test").length === 3, 20_000).catch(
          async (e: Error) => {
            throw new Error(`${e.message}: ${JSON.stringify(await smsRows("smshttp"))}`);
          },
        );
      });

      it("a failing gateway is retried until it accepts, and the failure is recorded meanwhile", async () => {
        gateway.state.failNext = 2;
        await smtpSend("nadawca@far.test", [`smsretry@${A}`], message("nadawca@far.test", `smsretry@${A}`, "Ponow"));
        await waitFor(
          "a recorded failure",
          async () => (await smsRows("smsretry"))[0]?.lastError.includes("503"),
          20_000,
        );
        await waitFor("the SMS sent", async () => (await smsRows("smsretry"))[0]?.status === "sent", 20_000);
        expect((await smsRows("smsretry"))[0]!.attempts).toBe(3);
        expect(gateway.requests.filter((r) => r.fields.to === "48791000111").map((r) => r.fields.text)).toEqual([
          "Ponow",
        ]);
      });

      it("the per-account hourly limit: the fourth message within the hour is skipped", async () => {
        for (let i = 1; i <= 4; i++)
          await smtpSend(
            "nadawca@far.test",
            [`smsrate@${A}`],
            message("nadawca@far.test", `smsrate@${A}`, `Limit ${i}`),
          );
        await waitFor("four rows", async () => (await smsRows("smsrate")).length === 4, 20_000);
        await waitFor("three sent", () => sentTo("limit@outside.test").length === 3, 20_000);
        const statuses = (await smsRows("smsrate")).map((r) => r.status).sort();
        expect(statuses).toEqual(["sent", "sent", "sent", "skipped"]);
        expect((await smsRows("smsrate")).find((r) => r.status === "skipped")!.lastError).toMatch(/rate limit/);
      });

      it("no SMS for mail outside the inbox, nor for list mail the account only moderates", async () => {
        const mark = eventsLogMark(l);
        // Scored 8 by the sandbox's Rspamd (X-Sandbox-Spam-Score): moved to Spam by the account's spam_rule.
        await smtpSend(
          "x@far.test",
          [`moder@${A}`],
          message("x@far.test", `moder@${A}`, "Do spamu", "Treść testowa.\n", "X-Sandbox-Spam-Score: 8\n"),
        );
        await smtpSend("x@far.test", [`zarzad@${A}`], message("x@far.test", `zarzad@${A}`, "Do moderacji"));
        await settle();
        expect(readMessages(l, `moder@${A}`, "Spam").some((m) => m.includes("Do spamu"))).toBe(true);
        // The list service (the sandbox's lists component) holds the post and sends moder the moderation request.
        await waitFor(
          "the moderation request",
          () => readMessages(l, `moder@${A}`).some((m) => m.includes("Do moderacji")),
          20_000,
        );
        // Its report answered without a notification (the Spam copy is not the inbox's, so never reported).
        await mark.wait(
          "the moderation request's new-mail event",
          new RegExp(`new-mail moder@${A} INBOX uid \\d+: list traffic to moderate`),
        );
        // The control: a message to the account itself is announced.
        await smtpSend("x@far.test", [`moder@${A}`], message("x@far.test", `moder@${A}`, "Do mnie"));
        await waitFor("the control notification", () => sentTo("moder-sms@outside.test").length === 1, 20_000);
        // The SMS worker has gone through every notification queued for moder.
        await waitFor(
          "moder's notifications handled",
          async () => (await smsRows("moder")).every((r) => r.status !== "pending"),
          20_000,
        );
        expect(sentTo("moder-sms@outside.test").map((m) => text(m.raw))).toEqual(["Do mnie"]);
      });
    });

    describe("SRS", () => {
      it("a forward to another provider leaves with an SRS sender, and a bounce to it comes back to the original sender", async () => {
        await smtpSend("ktos@far.test", [`fwd@${A}`], message("ktos@far.test", `fwd@${A}`, "Przekazany"));
        const fwd = await waitFor(
          "the forwarded copy",
          () => outbound().find((m) => m.to.includes("daleko@outside.test") && m.raw.includes("Przekazany")),
          20_000,
        );
        expect(fwd.from).toMatch(new RegExp(`^SRS0[=+-][^=]+=[^=]+=far\\.test=ktos@${A.replace(".", "\\.")}$`, "i"));
        // The destination bounces to the SRS address: Postfix rewrites it back and relays the bounce to ktos@far.test.
        const bounce = `From: MAILER-DAEMON@outside.test\nTo: <${fwd.from}>\nSubject: Undelivered Mail Returned to Sender\nAuto-Submitted: auto-replied\n\nThe mail could not be delivered.\n`;
        await smtpSend("", [fwd.from], bounce);
        const back = await waitFor(
          "the bounce relayed back",
          () => outbound().find((m) => m.to.includes("ktos@far.test")),
          20_000,
        );
        expect(back.raw).toContain("The mail could not be delivered.");
      });

      it("mail from outside delivered here keeps its original sender (Return-Path, Sieve white lists): SRS only for mail leaving", async () => {
        await smtpSend("ktos@far.test", [`jan@${A}`], message("ktos@far.test", `jan@${A}`, "Lokalnie"));
        const copy = await waitFor(
          "the local copy",
          () => readMessages(l, `jan@${A}`).find((m) => m.includes("Subject: Lokalnie")),
          20_000,
        );
        expect(/^Return-Path: <([^>]*)>/m.exec(copy)?.[1]).toBe("ktos@far.test");
      });

      it("a hosted domain's sender keeps its own address", async () => {
        await smtpSend(`jan@beta.test`, [`fwd@${A}`], message("jan@beta.test", `fwd@${A}`, "Z hostowanej"));
        const fwd = await waitFor(
          "the forwarded copy",
          () => outbound().find((m) => m.raw.includes("Z hostowanej")),
          20_000,
        );
        expect(fwd.from).toBe("jan@beta.test");
      });
    });

    describe("DKIM", () => {
      /** The sandbox's loopback DNS, where publishDkim() wrote the record: what a receiving provider would ask. */
      const sandboxDns = (name: string, type: string) => {
        const r = new Resolver({ timeout: 2000, tries: 2 });
        r.setServers([`127.0.0.1:${l.ports.dns}`]);
        if (type !== "TXT")
          return Promise.reject(Object.assign(new Error(`no ${type} ${name}`), { code: "ENOTFOUND" }));
        return r.resolveTxt(name);
      };
      async function sendSigned(subject: string) {
        const t = nodemailer.createTransport({
          host: "127.0.0.1",
          port: l.ports.submission,
          secure: false,
          ignoreTLS: true,
          auth: { user: `jan@${A}`, pass: PW },
        });
        try {
          await t.sendMail({ from: `jan@${A}`, to: "odbiorca@outside.test", subject, text: "Podpisana wiadomość.\n" });
        } finally {
          t.close();
        }
        return waitFor(
          "the signed message",
          () => outbound().find((m) => m.raw.includes(`Subject: ${subject}`)),
          20_000,
        );
      }

      it("mail from a hosted domain is signed by Rspamd with the domain's key and verifies against the published record", async () => {
        const record = dkimRecord(A, (await currentDkimKey(db, (await alpha()).id))!);
        expect((await checkDkimDns(record, `127.0.0.1:${l.ports.dns}`)).state).toBe("published");
        const mail = await sendSigned("Podpis jeden");
        expect(mail.raw).toMatch(/^DKIM-Signature:.*d=alpha\.test/m);
        const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: sandboxDns });
        expect(results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([
          [A, (await currentDkimKey(db, (await alpha()).id))!.selector, "pass"],
        ]);
        // The same message changed after signing does not verify (the check can fail).
        const tampered = mail.raw.replace("Podpisana", "Zmieniona");
        expect((await dkimVerify(Buffer.from(tampered), { resolver: sandboxDns })).results[0]!.status.result).not.toBe(
          "pass",
        );
      });

      it("a rotated key signs within seconds, with no reload", async () => {
        const before = (await currentDkimKey(db, (await alpha()).id))!;
        const rspamdLog = path.join(l.rspamd, "log", "rspamd.log");
        const logStart = fs.statSync(rspamdLog).size;
        const out = await cli("domain", "dkim", "rotate", A);
        const after = (await currentDkimKey(db, (await alpha()).id))!;
        expect(after.selector).not.toBe(before.selector);
        expect(String(out)).toContain(`${after.selector}._domainkey.${A}`);
        await publishDkim();
        // The events component writes the key and the selector map within a second; Rspamd must pick the map up
        // within 1.5 s of that, with no reload (the sandbox sets map_watch_interval 1s; Debian's Rspamd 3.4 also
        // rereads a changed local map file at once without it: the test passes both ways).
        const map = path.join(l.root, "dkim", "selectors.map");
        await waitFor(
          "the new selector in the map",
          () => fs.existsSync(map) && fs.readFileSync(map, "utf8").includes(after.selector),
          10_000,
        );
        // The milter's worker (rspamd_proxy, which signs) logs each time it reads the map.
        const reread = /\(rspamd_proxy\).*read hash of \d+ elements from .*selectors\.map/;
        await waitFor(
          "Rspamd's milter rereading the map",
          () =>
            fs
              .readFileSync(rspamdLog)
              .subarray(logStart)
              .toString("utf8")
              .split("\n")
              .some((x) => reread.test(x)),
          1_500,
        );
        const mail = await sendSigned("Podpis dwa");
        const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: sandboxDns });
        expect(results.map((r) => [r.selector, r.status.result])).toEqual([[after.selector, "pass"]]);
      });
    });
  },
);
