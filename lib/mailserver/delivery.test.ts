// Issue 32 on real daemons: mail logins move last_auth_*, over-quota mail is refused at RCPT, the usage warning
// arrives at the crossing delivery, SMS notifications go out by e-mail and HTTP, forwards leave with an SRS
// sender. Debian's Postfix, Dovecot and postsrsd, configured by `mailserver config`; the outside world (other
// providers' SMTP servers, an SMS company's HTTP gateway) is a local stand-in speaking the real protocol.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { accounts, smsQueue } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import { accountRecord, createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/accounts";
import type { Principal } from "@/lib/server/auth";
import { getDomainOrThrow } from "@/lib/server/domains";
import { createMailingList } from "@/lib/server/mailing-lists";
import { startMailEvents, type MailEvents } from "./events";
import { smsConfig } from "./sms/config";
import { decryptSmsPassword } from "./sms/secret";
import {
  chooseMailPorts,
  dovecotConf,
  freePorts,
  LineSocket,
  MAIL_OWNER,
  mailTestLayout,
  missingMailPackages,
  openDatabaseFiles,
  prepareLayout,
  queuedCount,
  readMessages,
  run,
  smtpSend as smtpSendOn,
  startDovecot,
  startPostfix,
  stopDovecot,
  stopPostfix,
  waitFor,
  type MailTestLayout,
} from "./testing/delivery-daemons";
import { startOutsideSmtp, startPostsrsd, startSmsGateway } from "./testing/outside-world";
import { rspamdMilterLines, startRspamd } from "./testing/rspamd";
import { currentDkimKey, dkimRecord } from "./dkim";
// mailauth has no type declarations: its dkimVerify(message, { resolver }) -> { results: [{ status, ... }] }.
const { dkimVerify } = createRequire(import.meta.url)("mailauth/lib/dkim/verify") as {
  dkimVerify: (input: Buffer, options: { resolver: (name: string, type: string) => Promise<string[][]> }) => Promise<{
    results: { signingDomain: string; selector: string; status: { result: string; comment?: string } }[];
  }>;
};

vi.mock("server-only", () => ({}));
// Deliveries, quota writes and Rspamd take seconds each, more on a busy host.
vi.setConfig({ testTimeout: 120_000 });
process.env.SMS_SECRET_KEY = "a".repeat(64);

const missing = [...missingMailPackages(), ...["dovecot-pop3d", "postsrsd", "curl"].filter((p) => {
  try {
    return !run("dpkg-query", ["-W", "-f=${Status}", p]).includes("install ok installed");
  } catch {
    return true;
  }
})];
if (missing.length) console.warn(`delivery tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

const A = "alpha.test";
const PW = "Konto-pass1";
let l: MailTestLayout;
let db: Db;
let postmaster: Principal;
let events: MailEvents;
let outside: Awaited<ReturnType<typeof startOutsideSmtp>>;
let gateway: Awaited<ReturnType<typeof startSmsGateway>>;
let postsrsd: { stop(): void };
let extra: { pop3: number; sasl: number; quota: number; srsF: number; srsR: number };
let rspamd: ReturnType<typeof startRspamd>;

const cli = (...argv: string[]) => runCommand(db, argv);
const alpha = () => getDomainOrThrow(db, A);
const row = (name: string) => db.select().from(accounts).where(eq(accounts.email, `${name}@${A}`)).get()!;
const set = (name: string, body: Record<string, unknown>) => updateAccounts(db, postmaster, alpha(), [name], body);
const smtpSend = (from: string, to: string[], msg: string) => smtpSendOn(l.ports.smtp, from, to, msg);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function message(from: string, to: string, subject: string, body = "Treść testowa.\n") {
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n${body}`;
}
const filler = (kb: number) => Array.from({ length: kb * 16 }, (_, i) => `${String(i).padStart(6, "0")} ${"x".repeat(56)}`).join("\n") + "\n";

async function settle() {
  await waitFor("an empty queue", () => queuedCount(l) === 0, 30_000);
  await sleep(800);
  await waitFor("an empty queue", () => queuedCount(l) === 0, 30_000);
}

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
  const s = await LineSocket.connect(extra.pop3);
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

async function smtpAuthSend(user: string, password: string, to: string) {
  const t = nodemailer.createTransport({ host: "127.0.0.1", port: l.ports.smtp, secure: false, ignoreTLS: true, auth: { user, pass: password } });
  try {
    await t.sendMail({ from: user, to, subject: "authenticated", text: "sent with SMTP AUTH" });
  } finally {
    t.close();
  }
}

/** Delivers straight over LMTP (as Postfix does), here to a folder: user+Folder with lmtp_save_to_detail_mailbox. */
async function lmtpDeliver(rcpt: string, msg: string) {
  const s = await LineSocket.connect(l.ports.lmtp);
  try {
    await s.until(/^220 /);
    for (const [cmd, ok] of [["LHLO test", /^250 /], ["MAIL FROM:<x@far.test>", /^250 /], [`RCPT TO:<${rcpt}>`, /^250 /], ["DATA", /^354 /]] as const) {
      s.write(`${cmd}\r\n`);
      const r = await s.until(/^\d{3} /);
      if (!ok.test(r.split("\r\n").at(-1)!)) throw new Error(`LMTP ${cmd}: ${r}`);
    }
    s.write(`${msg.replace(/\r?\n/g, "\r\n")}\r\n.\r\n`);
    await s.until(/^\d{3} /);
    s.write("QUIT\r\n");
  } finally {
    s.close();
  }
}

const smsRows = (name: string) => db.select().from(smsQueue).where(eq(smsQueue.accountId, row(name).id)).all();

describe.skipIf(missing.length > 0)("delivery: logins, quota, usage warning, SMS, SRS (real daemons)", () => {
  beforeAll(async () => {
    l = mailTestLayout(fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-delivery-")), await chooseMailPorts());
    const [pop3, sasl, quota, srsF, srsR, milter, normal, controller] = (await freePorts(8)) as [number, number, number, number, number, number, number, number];
    extra = { pop3, sasl, quota, srsF, srsR };
    prepareLayout(l);
    process.env.DATABASE_PATH = l.db;
    db = openDatabase(l.db);
    await cli("domain", "add", A, "--postmaster-password", "Admin-pass1");
    await cli("domain", "add", "beta.test", "--postmaster-password", "Admin-pass1");
    postmaster = { account: getAccountOrThrow(db, alpha(), "postmaster"), domain: A, isPostmaster: true };
    const d = alpha();
    createAccount(db, d, "jan", { password: PW });
    createAccount(db, d, "pelny", { password: PW, capacity: 1, usage_notification_level: 0 });
    createAccount(db, d, "ola", { password: PW, capacity: 1, usage_notification_level: 50 });
    createAccount(db, d, "fwd", { password: PW, forwards: ["daleko@outside.test"], keep_mail: 0 });
    createAccount(db, d, "smsmail", { password: PW, sms_phone_number_1: "bramka@outside.test", sms_send_to: 1, sms_cnt: 1 });
    createAccount(db, d, "smsop", { password: PW, sms_phone_number_1: "+48601234567", sms_operator_1: 21, sms_send_to: 1, sms_cnt: 0 });
    createAccount(db, d, "smsauto", { password: PW, sms_phone_number_1: "601234567", sms_operator_1: 0, sms_send_to: 1, sms_cnt: 2 });
    createAccount(db, d, "smshttp", {
      password: PW, sms_phone_number_1: "501234567", sms_send_to: 0, sms_cnt: 3, sms_login_1: "klient1", sms_password_1: "Bramka-tajne1",
      sms_phone_number_2: "kopia@outside.test",
    });
    createAccount(db, d, "smsretry", { password: PW, sms_phone_number_1: "791000111", sms_send_to: 0, sms_cnt: 0, sms_login_1: "k2", sms_password_1: "p2" });
    createAccount(db, d, "smsrate", { password: PW, sms_phone_number_1: "limit@outside.test", sms_send_to: 1, sms_cnt: 0 });
    createAccount(db, d, "moder", { password: PW, sms_phone_number_1: "moder-sms@outside.test", sms_send_to: 1, sms_cnt: 0 });
    createMailingList(db, d, "zarzad", { privacy_mode: 1, accounts: [`jan@${A}`], moderators: [`moder@${A}`] });
    // Counts the writes of last_auth_* (no write per command, nor per login on the same day from the same address).
    db.$client.exec(`CREATE TABLE test_auth_writes (email TEXT);
      CREATE TRIGGER test_auth_writes AFTER UPDATE OF last_auth_date, last_auth_ip ON accounts BEGIN
        INSERT INTO test_auth_writes VALUES (new.email); END;`);

    outside = await startOutsideSmtp();
    gateway = await startSmsGateway();
    events = await startMailEvents({
      db,
      doveadm: ["doveadm", "-c", dovecotConf(l)],
      sms: smsConfig({
        operators: {
          "11": { email: "{msisdn}@plus-sms.outside.test" },
          "21": { email: "{msisdn}@era-sms.outside.test" },
        },
        http: { url: `http://127.0.0.1:${gateway.port}/send?client={login}`, method: "POST", format: "form", fields: { to: "{msisdn}", password: "{password}", text: "{text}" }, successMatch: "OK" },
        retryDelaysSeconds: [0.3],
        rateLimitPerHour: 3,
      }),
      transport: { smtp: { host: "127.0.0.1", port: l.ports.smtp } },
      queueIntervalMs: 200,
      dkim: { dir: path.join(l.root, "dkim"), group: "_rspamd", intervalMs: 300 },
      log: (line) => { if (process.env.MAIL_EVENTS_LOG) console.log(line); },
    });
    await cli(
      "mailserver", "config", "--out", l.conf, "--maildir-root", l.vmail,
      "--mail-user", MAIL_OWNER.user, "--mail-group", MAIL_OWNER.group, "--db-group", MAIL_OWNER.group,
      "--lmtp", `lmtp:inet:127.0.0.1:${l.ports.lmtp}`, "--events-url", events.url, "--quota-status-port", String(quota),
      "--srs-domain", A, "--srs-forward", `127.0.0.1:${srsF}`, "--srs-reverse", `127.0.0.1:${srsR}`,
      "--dkim-dir", path.join(l.root, "dkim"),
    );
    rspamd = startRspamd(path.join(l.root, "rspamd"), { milter, normal, controller }, l.conf);
    openDatabaseFiles(l);
    postsrsd = startPostsrsd(path.join(l.root, "postsrsd"), A, srsF, srsR);
    startDovecot(l, `${process.env.DOVECOT_DEBUG ? "mail_debug = yes\nauth_debug = yes" : ""}
protocols = imap lmtp pop3
recipient_delimiter = +
lmtp_save_to_detail_mailbox = yes
service pop3-login {
  inet_listener pop3 {
    address = 127.0.0.1
    port = ${pop3}
  }
  inet_listener pop3s {
    port = 0
  }
}
service auth {
  inet_listener sasl {
    address = 127.0.0.1
    port = ${sasl}
  }
}`);
    startPostfix(l, `smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:${sasl}
# The outside world: every other domain's MX is the test's SMTP catcher.
default_transport = smtp:[127.0.0.1]:${outside.port}
smtp_tls_security_level = none
${rspamdMilterLines(milter)}`);
    await rspamd.ready();
  }, 240_000);

  afterAll(async () => {
    if (!l) return;
    stopPostfix(l);
    stopDovecot(l);
    postsrsd?.stop();
    await rspamd?.stop();
    await events?.close();
    await outside?.close();
    await gateway?.close();
    db?.$client.close();
    if (!process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(l.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 300 });
  });

  describe("last login from the mail server", () => {
    const today = new Date().toISOString().slice(0, 10);
    const reset = () => db.update(accounts).set({ lastAuthDate: "", lastAuthIp: "" }).where(eq(accounts.email, `jan@${A}`)).run();
    const moved = () => waitFor("last_auth_* to move", () => row("jan").lastAuthDate === today && row("jan").lastAuthIp === "127.0.0.1", 5_000);

    it("IMAP login sets last_auth_date and last_auth_ip", async () => {
      reset();
      expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      await moved();
    });

    it("POP3 login sets them", async () => {
      reset();
      expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
      await moved();
    });

    it("SMTP AUTH (Dovecot SASL) sets them", async () => {
      reset();
      await smtpAuthSend(`jan@${A}`, PW, `ola@${A}`);
      await moved();
      await settle();
    });

    it("a failed login does not, and repeated logins and commands write nothing more", async () => {
      reset();
      expect(await imapLogin(`jan@${A}`, "wrong-password")).toBe(false);
      await sleep(1000);
      expect(row("jan").lastAuthDate).toBe("");
      const writes = () => db.$client.prepare("SELECT count(*) AS n FROM test_auth_writes WHERE email = ?").get(`jan@${A}`) as { n: number };
      expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      await moved();
      const after = writes().n;
      for (let i = 0; i < 3; i++) expect(await imapLogin(`jan@${A}`, PW)).toBe(true);
      expect(await pop3Login(`jan@${A}`, PW)).toBe(true);
      await sleep(1000);
      expect(writes().n).toBe(after);
    });
  });

  describe("quota", () => {
    it("a second message to a full mailbox is refused at RCPT (552), and nothing bounces", async () => {
      await smtpSend("nadawca@far.test", [`pelny@${A}`], message("nadawca@far.test", `pelny@${A}`, "duza", filler(1100)));
      await settle();
      expect(readMessages(l, `pelny@${A}`).length).toBe(1);
      await waitFor("usage written back", () => row("pelny").usagePercent >= 95);
      const before = outside.mails.length;
      await expect(smtpSend("nadawca@far.test", [`pelny@${A}`], message("nadawca@far.test", `pelny@${A}`, "druga"))).rejects.toThrow(/^SMTP: 552 5\.2\.2/m);
      await settle();
      expect(readMessages(l, `pelny@${A}`).length).toBe(1);
      expect(outside.mails.slice(before).filter((m) => m.to.includes("nadawca@far.test"))).toEqual([]);
    });
  });

  describe("usage warning at delivery", () => {
    const warnings = () => readMessages(l, `ola@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));

    it("comes with the delivery that reaches the level, not before, and not again within 24 h", async () => {
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "trzydziesci", filler(300)));
      await settle();
      await sleep(1500);
      expect(warnings()).toHaveLength(0);
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "szescdziesiat", filler(300)));
      await waitFor("the warning", () => warnings().length === 1, 15_000);
      expect(warnings()[0]).toMatch(/Subject: =\?UTF-8\?B\?/);
      expect(Buffer.from(/Subject: =\?UTF-8\?B\?([^?]+)\?=/.exec(warnings()[0]!)![1]!, "base64").toString()).toMatch(/^Skrzynka zajęta w (5|6)\d%$/);
      expect(row("ola").usageWarnedAt).not.toBe("");
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "osiemdziesiat", filler(200)));
      await settle();
      await sleep(1500);
      expect(warnings()).toHaveLength(1);
      // A day later, the next crossing warns again.
      db.update(accounts).set({ usageWarnedAt: new Date(Date.now() - 25 * 3_600_000).toISOString() }).where(eq(accounts.email, `ola@${A}`)).run();
      await smtpSend("a@far.test", [`ola@${A}`], message("a@far.test", `ola@${A}`, "dziewiecdziesiat", filler(100)));
      await waitFor("the second warning", () => warnings().length === 2, 15_000);
    });
  });

  describe("SMS notifications", () => {
    const sentTo = (address: string) => outside.mails.filter((m) => m.to.includes(address));
    const text = (raw: string) => raw.split(/\r?\n\r?\n/).slice(1).join("\n").trim();

    it("the record never shows the SMS password; it is stored encrypted", () => {
      const r = accountRecord(db, alpha(), row("smshttp"));
      expect(r.sms_password_1).toBe("");
      expect(row("smshttp").smsPassword1).toMatch(/^enc1:/);
      expect(decryptSmsPassword(row("smshttp").smsPassword1)).toBe("Bramka-tajne1");
      // Sending the record back whole keeps the stored password.
      const { aliases: _aliases, ...back } = r;
      void _aliases;
      set("smshttp", back);
      expect(decryptSmsPassword(row("smshttp").smsPassword1)).toBe("Bramka-tajne1");
    });

    it("sms_send_to 1 with an e-mail address, sms_cnt 1: one e-mail with subject and body", async () => {
      await smtpSend("nadawca@far.test", [`smsmail@${A}`], message("nadawca@far.test", `smsmail@${A}`, "Zażółć gęślą jaźń", "Pierwsza linia.\nDruga linia.\n"));
      await waitFor("the notification", () => sentTo("bramka@outside.test").length === 1, 20_000);
      expect(text(sentTo("bramka@outside.test")[0]!.raw)).toBe("Zazolc gesla jazn: Pierwsza linia. Druga linia.");
      expect(smsRows("smsmail").map((r) => r.status)).toEqual(["sent"]);
    });

    it("a number with an operator code (21) goes to that operator's gateway, sms_cnt 0: the subject only", async () => {
      await smtpSend("nadawca@far.test", [`smsop@${A}`], message("nadawca@far.test", `smsop@${A}`, "Tylko temat", "ciało, którego nie ma w SMS\n"));
      await waitFor("the notification", () => sentTo("48601234567@era-sms.outside.test").length === 1, 20_000);
      expect(text(sentTo("48601234567@era-sms.outside.test")[0]!.raw)).toBe("Tylko temat");
    });

    it("operator 0 is detected from the prefix (601: Plus), sms_cnt 2: two SMS of at most 160 characters", async () => {
      const body = Array.from({ length: 60 }, (_, i) => `słowo${i}`).join(" ");
      await smtpSend("nadawca@far.test", [`smsauto@${A}`], message("nadawca@far.test", `smsauto@${A}`, "Długi list", body));
      await waitFor("two SMS e-mails", () => sentTo("48601234567@plus-sms.outside.test").length === 2, 20_000);
      const parts = sentTo("48601234567@plus-sms.outside.test").map((m) => text(m.raw).replace(/=\r?\n/g, ""));
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(160);
      expect(parts[0]).toMatch(/^Dlugi list: slowo0 slowo1/);
      expect(parts[1]).toMatch(/^slowo\d+/);
    });

    it("sms_send_to 0: the HTTP gateway with the account's login and password, sms_cnt 3: three SMS; the second number by e-mail", async () => {
      const body = Array.from({ length: 120 }, (_, i) => `w${i}`).join(" ");
      await smtpSend("nadawca@far.test", [`smshttp@${A}`], message("nadawca@far.test", `smshttp@${A}`, "Przez bramkę", body));
      await waitFor("three gateway requests", () => gateway.requests.filter((r) => r.fields.to === "48501234567").length === 3, 20_000);
      const reqs = gateway.requests.filter((r) => r.fields.to === "48501234567");
      expect(reqs.every((r) => r.url === "/send?client=klient1" && r.fields.password === "Bramka-tajne1" && r.method === "POST")).toBe(true);
      expect(reqs.every((r) => r.fields.text!.length <= 160)).toBe(true);
      expect(reqs[0]!.fields.text).toMatch(/^Przez bramke: w0 w1/);
      await waitFor("the second number's e-mail", () => sentTo("kopia@outside.test").length === 3, 20_000).catch((e: Error) => {
        throw new Error(`${e.message}: ${JSON.stringify(smsRows("smshttp"))}`);
      });
    });

    it("a failing gateway is retried until it accepts, and the failure is recorded meanwhile", async () => {
      gateway.state.failNext = 2;
      await smtpSend("nadawca@far.test", [`smsretry@${A}`], message("nadawca@far.test", `smsretry@${A}`, "Ponow"));
      await waitFor("a recorded failure", () => smsRows("smsretry")[0]?.lastError.includes("503"), 20_000);
      await waitFor("the SMS sent", () => smsRows("smsretry")[0]?.status === "sent", 20_000);
      expect(smsRows("smsretry")[0]!.attempts).toBe(3);
      expect(gateway.requests.filter((r) => r.fields.to === "48791000111").map((r) => r.fields.text)).toEqual(["Ponow"]);
    });

    it("the per-account hourly limit: the fourth message within the hour is skipped", async () => {
      for (let i = 1; i <= 4; i++) await smtpSend("nadawca@far.test", [`smsrate@${A}`], message("nadawca@far.test", `smsrate@${A}`, `Limit ${i}`));
      await waitFor("four rows", () => smsRows("smsrate").length === 4, 20_000);
      await waitFor("three sent", () => sentTo("limit@outside.test").length === 3, 20_000);
      const statuses = smsRows("smsrate").map((r) => r.status).sort();
      expect(statuses).toEqual(["sent", "sent", "sent", "skipped"]);
      expect(smsRows("smsrate").find((r) => r.status === "skipped")!.lastError).toMatch(/rate limit/);
    });

    it("no SMS for mail outside the inbox, nor for list mail the account only moderates", async () => {
      await lmtpDeliver(`moder+Spam@${A}`, message("x@far.test", `moder@${A}`, "Do spamu"));
      await smtpSend("x@far.test", [`zarzad@${A}`], message("x@far.test", `zarzad@${A}`, "Do moderacji"));
      await settle();
      expect(readMessages(l, `moder@${A}`, "Spam").some((m) => m.includes("Do spamu"))).toBe(true);
      expect(readMessages(l, `moder@${A}`).some((m) => m.includes("Do moderacji"))).toBe(true);
      // The control: a message to the account itself is announced.
      await smtpSend("x@far.test", [`moder@${A}`], message("x@far.test", `moder@${A}`, "Do mnie"));
      await waitFor("the control notification", () => sentTo("moder-sms@outside.test").length === 1, 20_000);
      await sleep(500);
      expect(sentTo("moder-sms@outside.test").map((m) => text(m.raw))).toEqual(["Do mnie"]);
    });
  });

  describe("SRS", () => {
    it("a forward to another provider leaves with an SRS sender, and a bounce to it comes back to the original sender", async () => {
      await smtpSend("ktos@far.test", [`fwd@${A}`], message("ktos@far.test", `fwd@${A}`, "Przekazany"));
      const fwd = await waitFor("the forwarded copy", () => outside.mails.find((m) => m.to.includes("daleko@outside.test") && m.raw.includes("Przekazany")), 20_000);
      expect(fwd.from).toMatch(new RegExp(`^SRS0[=+-][^=]+=[^=]+=far\\.test=ktos@${A.replace(".", "\\.")}$`, "i"));
      // The destination bounces to the SRS address: Postfix rewrites it back and relays the bounce to ktos@far.test.
      const bounce = `From: MAILER-DAEMON@outside.test\nTo: <${fwd.from}>\nSubject: Undelivered Mail Returned to Sender\nAuto-Submitted: auto-replied\n\nThe mail could not be delivered.\n`;
      await smtpSend("", [fwd.from], bounce);
      const back = await waitFor("the bounce relayed back", () => outside.mails.find((m) => m.to.includes("ktos@far.test")), 20_000);
      expect(back.raw).toContain("The mail could not be delivered.");
    });

    it("a hosted domain's sender keeps its own address", async () => {
      await smtpSend(`jan@beta.test`, [`fwd@${A}`], message("jan@beta.test", `fwd@${A}`, "Z hostowanej"));
      const fwd = await waitFor("the forwarded copy", () => outside.mails.find((m) => m.raw.includes("Z hostowanej")), 20_000);
      expect(fwd.from).toBe("jan@beta.test");
    });
  });

  describe("DKIM", () => {
    const published = (domain: string) => (name: string, type: string) => {
      const key = currentDkimKey(db, getDomainOrThrow(db, domain).id)!;
      const r = dkimRecord(domain, key);
      if (type !== "TXT" || name !== r.name) return Promise.reject(Object.assign(new Error(`no ${type} ${name}`), { code: "ENOTFOUND" }));
      return Promise.resolve([[r.value]]);
    };
    async function sendSigned(subject: string) {
      const t = nodemailer.createTransport({ host: "127.0.0.1", port: l.ports.smtp, secure: false, ignoreTLS: true, auth: { user: `jan@${A}`, pass: PW } });
      try {
        await t.sendMail({ from: `jan@${A}`, to: "odbiorca@outside.test", subject, text: "Podpisana wiadomość.\n" });
      } finally {
        t.close();
      }
      return waitFor("the signed message", () => outside.mails.find((m) => m.raw.includes(`Subject: ${subject}`)), 20_000);
    }

    it("mail from a hosted domain is signed by Rspamd with the domain's key and verifies against the published record", async () => {
      const mail = await sendSigned("Podpis jeden");
      expect(mail.raw).toMatch(/^DKIM-Signature:.*d=alpha\.test/m);
      const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: published(A) });
      expect(results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([[A, currentDkimKey(db, alpha().id)!.selector, "pass"]]);
      // The same message changed after signing does not verify (the check can fail).
      const tampered = mail.raw.replace("Podpisana", "Zmieniona");
      expect((await dkimVerify(Buffer.from(tampered), { resolver: published(A) })).results[0]!.status.result).not.toBe("pass");
    });

    it("a rotated key signs within seconds, with no reload", async () => {
      const before = currentDkimKey(db, alpha().id)!;
      const out = await cli("domain", "dkim", "rotate", A);
      const after = currentDkimKey(db, alpha().id)!;
      expect(after.selector).not.toBe(before.selector);
      expect(String(out)).toContain(`${after.selector}._domainkey.${A}`);
      await sleep(3000);
      const mail = await sendSigned("Podpis dwa");
      const { results } = await dkimVerify(Buffer.from(mail.raw), { resolver: published(A) });
      expect(results.map((r) => [r.selector, r.status.result])).toEqual([[after.selector, "pass"]]);
    });
  });
});
