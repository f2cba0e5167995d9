// The delivery tests' shared state and setup: one sandbox for every case file of delivery.test.ts.
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { accounts, smsQueue } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import { createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import type { Principal } from "@/lib/server/caller/auth";
import { createAlias } from "@/lib/server/resources/aliases";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { currentDkimKey, dkimRecord } from "../../dkim";
import type { DkimKeyRow } from "@/db/schema";
import { readDnsRecords, writeDnsRecords } from "../../sandbox/dns-server";
import { maildirNew } from "../../sandbox/outbound-sink";
import {
  closeTestDatabase,
  LineSocket,
  mailTestsOnPostgres,
  newMailTestRoot,
  openTestDatabase,
  settleMail,
  smtpSend as smtpSendOn,
  startMailSystem,
  type MailTestLayout,
} from "../mail-daemons";
import { startSmsGateway } from "../../testing/sms-gateway";

export { dkimVerify } from "../mail-daemons";

export const A = "alpha.test";
export const PW = "Konto-pass1";
export let root: string;
export let l: MailTestLayout;
export let db: Db;
export let postmaster: Principal;
export let gateway: Awaited<ReturnType<typeof startSmsGateway>>;

export const cli = (...argv: string[]) => runCommand(db, argv);
export const alpha = () => getDomainOrThrow(db, A);
export const row = async (name: string) =>
  (
    await db
      .select()
      .from(accounts)
      .where(eq(accounts.email, `${name}@${A}`))
  )[0]!;
export const set = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, postmaster, await alpha(), [name], body);
export const smtpSend = (from: string, to: string[], msg: string) => smtpSendOn(l.ports.smtp, from, to, msg);

export interface OutboundMail {
  from: string;
  to: string[];
  raw: string;
}
/** What left for other providers: the sandbox's outbound Maildir, envelope from its X-Sandbox-Envelope-* headers. */
export function outbound(): OutboundMail[] {
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

export function message(from: string, to: string, subject: string, body = "Treść testowa.\n", extraHeaders = "") {
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extraHeaders}\n${body}`;
}
export const filler = (kb: number) =>
  Array.from({ length: kb * 16 }, (_, i) => `${String(i).padStart(6, "0")} ${"x".repeat(56)}`).join("\n") + "\n";

/** The inbox settle() sends its markers to, and whose logins show the mail event service has moved on. */
export const MARKER = `znacznik@${A}`;
export const settle = () => settleMail(l, MARKER);

export async function imapLogin(user: string, password: string, from?: string) {
  const s = await LineSocket.connect(l.ports.imap, from);
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

export async function pop3Login(user: string, password: string, from?: string) {
  const s = await LineSocket.connect(l.ports.pop3, from);
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
export async function smtpAuthSend(user: string, password: string, to: string, subject = "authenticated") {
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

export const smsRows = async (name: string) =>
  db
    .select()
    .from(smsQueue)
    .where(eq(smsQueue.accountId, (await row(name)).id));

/** Seeds the accounts, writes the SMS configuration and starts the sandbox. */
export async function setUp() {
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
  // The SMS accounts (./sms.ts): an e-mail gateway, operators' (both numbers), the HTTP gateway (both slots),
  // retries, the rate, a moderator.
  const sms: Record<string, Record<string, unknown>> = {
    smsmail: { sms_phone_number_1: "bramka@outside.test", sms_send_to: 1, sms_cnt: 1 },
    // The second number's prefix (602) is Era's: its code 11 (Plus) must win.
    smsop: {
      sms_phone_number_1: "+48601234567",
      sms_operator_1: 21,
      sms_phone_number_2: "602000111",
      sms_operator_2: 11,
      sms_send_to: 1,
      sms_cnt: 0,
    },
    smsauto: { sms_phone_number_1: "601234567", sms_operator_1: 0, sms_send_to: 1, sms_cnt: 2 },
    smshttp: {
      sms_phone_number_1: "501234567",
      sms_send_to: 0,
      sms_cnt: 3,
      sms_login_1: "klient1",
      sms_password_1: "Bramka-tajne1",
      sms_phone_number_2: "kopia@outside.test",
    },
    // Both numbers Orange's by prefix (501): the second one's code 12 has its own HTTP gateway.
    smsdwa: {
      sms_phone_number_1: "501000222",
      sms_operator_1: 0,
      sms_login_1: "klient-jeden",
      sms_password_1: "Haslo-jeden1",
      sms_phone_number_2: "501000333",
      sms_operator_2: 12,
      sms_login_2: "klient-dwa",
      sms_password_2: "Haslo-dwa2",
      sms_send_to: 0,
      sms_cnt: 0,
    },
    smsretry: { sms_phone_number_1: "791000111", sms_send_to: 0, sms_cnt: 0, sms_login_1: "k2", sms_password_1: "p2" },
    smsrate: { sms_phone_number_1: "limit@outside.test", sms_send_to: 1, sms_cnt: 0 },
    smslock: { sms_phone_number_1: "zajety@outside.test", sms_send_to: 1, sms_cnt: 1 },
    // Also a moderator of the list zarzad, filtering spam.
    moder: {
      sms_phone_number_1: "moder-sms@outside.test",
      sms_send_to: 1,
      sms_cnt: 0,
      spam_hits: 5,
      spam_rule: "move",
    },
  };
  for (const [name, fields] of Object.entries(sms)) await createAccount(db, d, name, { password: PW, ...fields });
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
  // e-mail gateways on outside domains (so into the outbound Maildir) and the HTTP gateway stand-in, which also
  // plays operator 12's own gateway under another path.
  gateway = await startSmsGateway();
  const httpGateway = (pathname: string) => ({
    url: `http://127.0.0.1:${gateway.port}${pathname}?client={login}`,
    method: "POST",
    format: "form",
    fields: { to: "{msisdn}", password: "{password}", text: "{text}" },
    successMatch: "OK",
  });
  const smsConfigFile = path.join(root, "sms.json");
  fs.writeFileSync(
    smsConfigFile,
    JSON.stringify({
      operators: {
        "11": { email: "{msisdn}@plus-sms.outside.test" },
        "12": { http: httpGateway("/operator12") },
        "21": { email: "{msisdn}@era-sms.outside.test" },
      },
      http: httpGateway("/send"),
      retryDelaysSeconds: [0.3],
      rateLimitPerHour: 3,
    }),
  );
  process.env.SMS_CONFIG = smsConfigFile;
  // Open sessions of accounts that may no longer log in are ended every second instead of every 5 s.
  l = await startMailSystem(root, { srsDomain: A, sessionCheckMs: 1_000 });
  // The DKIM record, published where the tests' resolver (and the panel's check) asks: the sandbox's DNS.
  await publishDkim();
}

export async function tearDown() {
  await l?.sandbox?.stop();
  await gateway?.close();
  await closeTestDatabase(db);
  delete process.env.SMS_CONFIG;
  if (root && !process.env.KEEP_MAIL_TEST_DIR)
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 300 });
}

/** Writes alpha.test's current DKIM TXT record (or a given key's) into the sandbox's DNS (records.json). */
export async function publishDkim(key?: DkimKeyRow) {
  const r = dkimRecord(A, key ?? (await currentDkimKey(db, (await alpha()).id))!);
  writeDnsRecords(l.dnsRecords, { ...readDnsRecords(l.dnsRecords), [r.name]: { TXT: [r.value] } });
  return r;
}
