// The list tests' shared state and setup: one sandbox for lists.test.ts and its case files.
import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { createMailingList, getListOrThrow, listRecord } from "@/lib/server/resources/mailing-lists";
import {
  closeTestDatabase,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  run,
  settleMail,
  smtpSend,
  startMailSystem,
  type MailTestLayout,
} from "@/lib/mailserver/testing/mail-daemons";
import { maildirNew } from "@/lib/mailserver/sandbox/outbound-sink";
import { verpAddress } from "../bounce-address";
import type { ListService } from "../service";

export const A = "alpha.test";
export const at = (name: string) => `${name}@${A}`;
export const PW = "Test-pass1";

export let l: MailTestLayout;
export let db: Db;
export let service: ListService;
export let root: string;
export const publicUrl = () => l.sandbox.info.lists_url;
/** The list service's log lines (the sandbox writes them to logs/lists.log). */
export const log = () => {
  const file = path.join(l.logs, "lists.log");
  return fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((line) => line.replace(/^\S+ /, ""))
    : [];
};

export const domain = () => getDomainOrThrow(db, A);
export let counter = 0;
/** A unique subject, so each test looks only for its own messages. */
export const unique = (what: string) => `${what}-${++counter}-${Date.now()}`;

export function message(from: string, to: string, subject: string, extra = "", body = "Treść testowa.\n") {
  return (
    `From: Nadawca <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}@client.test>\n` +
    `Date: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extra}\n${body}`
  );
}
export const post = (from: string, list: string, subject: string, extra = "", envelope = from) =>
  smtpSend(l.ports.smtp, envelope, [at(list)], message(from, at(list), subject, extra));

/**
 * A post sent through the submission port, logged in as its From (how members' posts are authenticated); also how a
 * SUBSCRIBE or UNSUBSCRIBE by mail is answered (only to an authenticated From).
 */
export async function postAs(from: string, list: string, subject: string, body?: string) {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: l.ports.submission,
    secure: false,
    ignoreTLS: true,
    auth: { user: from, pass: PW },
    name: "client.mailadmin.test",
  });
  try {
    await transport.sendMail({
      envelope: { from, to: [at(list)] },
      raw: message(from, at(list), subject, "", body).replace(/\r?\n/g, "\r\n"),
    });
  } finally {
    transport.close();
  }
}

/** The inbox and the Spam folder (Rspamd may file a test message with odd headers as spam: still delivered). */
export const mailOf = (email: string) => [...readMessages(l, email), ...readMessages(l, email, "Spam")];
export const withSubject = (email: string, subject: string) => mailOf(email).filter((m) => m.includes(subject));
export const received = (email: string, subject: string) => withSubject(email, subject).length > 0;
/** The first message whose decoded Subject contains `subject` (subjects with Polish letters are encoded words). */
export async function waitReceived(email: string, subject: string): Promise<string> {
  const end = Date.now() + 30_000;
  for (;;) {
    for (const raw of mailOf(email)) if ((await simpleParser(raw)).subject?.includes(subject)) return raw;
    if (Date.now() > end) throw new Error(`timed out waiting for ${subject} for ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until the mail system has moved past everything sent so far (the list service answers LMTP only after handing every copy over). */
export const settle = () => settleMail(l, at("znacznik"), 60_000);

/** Messages in the sandbox's outbound Maildir (mail to other servers: a bounce to an outside sender) holding `text`. */
export const outboundWith = (text: string) =>
  maildirNew(l.outbound).filter((f) => fs.readFileSync(f, "utf8").includes(text));
export const maillog = () => fs.readFileSync(path.join(l.logs, "postfix.log"), "utf8");
/**
 * What the mail system logged about the message whose Message-ID holds `id`: Postfix's lines for its queue ids, Rspamd's
 * naming it, and the policy service's last answers. The message of an expectation about that message, for a failure
 * in CI, where the sandbox's logs are gone with it.
 */
export function trace(id: string): string {
  const lines = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : []);
  const postfix = lines(path.join(l.logs, "postfix.log"));
  const queueIds = new Set(postfix.filter((s) => s.includes(id)).map((s) => /\]: ([0-9A-Za-z]+): /.exec(s)?.[1]));
  return [
    ...postfix.filter((s) => [...queueIds].some((q) => q && s.includes(q))),
    // Rspamd's own log (logs/rspamd.log holds only what the daemon prints).
    ...lines(path.join(l.rspamd, "log", "rspamd.log")).filter((s) => s.includes(id)),
    ...lines(path.join(l.logs, "policy.log")).slice(-12),
  ].join("\n");
}
export const header = (raw: string, name: string) =>
  new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, "im").exec(raw)?.[1]?.replace(/\r?\n[ \t]+/g, " ");
export const text = async (raw: string) => (await simpleParser(raw)).text ?? "";
export const linkIn = async (raw: string, re: RegExp) => re.exec(await text(raw))?.[0] ?? "";
/** The signed VERP bounce address the list `name` of the test domain gives `subscriber`. */
export const verpOf = (name: string, subscriber: string) =>
  verpAddress(db, { name, domain: A, email: at(name) }, subscriber);
export const members = async (list: string) =>
  listRecord(db, await domain(), await getListOrThrow(db, await domain(), list));

export async function seed() {
  await runCommand(db, ["domain", "add", A, "--postmaster-password", PW]);
  for (const name of ["jan", "ewa", "anna", "obcy", "marta", "piotr", "zofia", "karol"])
    await createAccount(db, await domain(), name, { password: PW });
  await createAccount(db, await domain(), "znacznik", {
    password: PW,
    spam_enabled: 0,
    spam_rbl_enabled: 0,
    spam_spf_enabled: 0,
  });
  const subs = [at("jan"), at("ewa")];
  const mods = [at("anna")];
  const d = await domain();
  await createMailingList(db, d, "otwarta", {
    privacy_mode: 0,
    description: "Lista otwarta żółć",
    accounts: subs,
    moderators: mods,
  });
  await createMailingList(db, d, "moderowana", {
    privacy_mode: 1,
    description: "Moderowana",
    accounts: subs,
    moderators: mods,
  });
  await createMailingList(db, d, "kierowana", {
    privacy_mode: 1,
    replyto_catchall: 1,
    replyto_email: at("marta"),
    accounts: [at("jan")],
    moderators: mods,
  });
  await createMailingList(db, d, "zamknieta", { privacy_mode: 2, accounts: subs, moderators: mods });
  await createMailingList(db, d, "odpowiedz1", { replyto_mode: 1, accounts: subs });
  await createMailingList(db, d, "odpowiedz2", { replyto_mode: 2, replyto_email: at("marta"), accounts: subs });
  await createMailingList(db, d, "zapisy", {
    autosubscribe_enabled: 1,
    accounts: [at("jan")],
    subscribe_request_mail_subject: "Chcesz na {{list}}?",
    subscribe_request_mail_body: "Adres {{address}} prosi o zapis na {{description}}. Kliknij: {{confirm_link}}",
    subscribe_mail_subject: "Jesteś na {{list}}",
    subscribe_mail_body: "Witaj {{address}} na {{description}}.",
    unsubscribe_request_mail_subject: "Odchodzisz z {{list}}?",
    unsubscribe_request_mail_body: "Potwierdź wypisanie {{address}} z {{list}}: {{confirm_link}}",
    unsubscribe_mail_subject: "Żegnaj z {{list}}",
    unsubscribe_mail_body: "Adres {{address}} wypisany z {{description}}.",
    description: "Zapisy pocztą",
  });
  await createMailingList(db, d, "domyslna", { autosubscribe_enabled: 1, accounts: [at("jan")] });
  await createMailingList(db, d, "zewnetrzna", {
    autosubscribe_enabled: 1,
    confirm_url: "https://www.example.test/potwierdz?lista=1",
  });
  await createMailingList(db, d, "bezzapisow", { accounts: [at("jan")] });
  // An address of a hosted domain that does not exist: Postfix bounces the copy to the list's VERP address.
  await createMailingList(db, d, "odbicia", { accounts: [at("jan"), at("nikt")] });
}

/** Seeds the lists and starts the sandbox with the list service. */
export async function setUp() {
  // The list pages behind a proxy on loopback, as in production: X-Forwarded-For names the client (the IPv6 budget
  // test). Read once, at the first env(): set before anything starts.
  process.env.TRUSTED_PROXIES = "127.0.0.1";
  root = newMailTestRoot("mailadmin-lists-");
  process.env.DATABASE_PATH = path.join(root, "db", "mail.db");
  db = await openTestDatabase(process.env.DATABASE_PATH);
  await seed();
  // SPF and DMARC for mail from 127.0.0.1 too: the DMARC-aligned poster's test.
  l = await startMailSystem(root, { authChecksForLoopback: true });
  service = l.sandbox.listService!;
  // The big-list test's subscribers live in a domain whose mail Postfix throws away.
  const transport = run("postconf", ["-c", l.postfix, "-h", "transport_maps"]).trim();
  run("postconf", ["-c", l.postfix, "-e", `transport_maps = ${transport}, inline:{ sink.test=discard: }`]);
  run("postfix", ["-c", l.postfix, "reload"]);
}

export async function tearDown() {
  if (process.env.LIST_TEST_LOG) console.log(log().join("\n"));
  await l?.sandbox.stop();
  await closeTestDatabase(db);
  if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
}
