// The mail-server tests' shared state and setup: one sandbox for mail-server.test.ts and its case files.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow, updateDomain } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { writeDnsRecords, type DnsRecords } from "../../sandbox/dns-server";
import {
  closeTestDatabase,
  dovecotConf,
  imapAppend as imapAppendOn,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  run,
  settleMail,
  smtpSend as smtpSendOn,
  startMailSystem,
  type MailTestLayout,
} from "../mail-daemons";

const execFileAsync = promisify(execFile);

export const A = "alpha.test";
export const PASSWORD = { postmaster: "Admin-pass1", jan: "Jan-pass1", janNew: "Jan-new-2", other: "Other-pw1" };
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export let l: MailTestLayout;
export let db: Db;
export let postmaster: Principal;

export const smtpSend = (from: string, to: string[], msg: string) => smtpSendOn(l.ports.smtp, from, to, msg);
export const imapAppend = (user: string, password: string, mailbox: string, date: Date, msg: string) =>
  imapAppendOn(l.ports.imap, user, password, mailbox, date, msg);
export const cli = (...argv: string[]) => runCommand(db, argv);
export const domain = (name: string) => getDomainOrThrow(db, name);
export const setAccount = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, postmaster, await domain(A), [name], body);
export const doveadm = (...args: string[]) => run("doveadm", ["-c", dovecotConf(l), ...args]);

/**
 * Not a synchronous spawn: Dovecot asks the mail event service (in this process) before each authentication, and a
 * blocked event loop left each check to wait for the policy request's timeout (2 s).
 */
export async function authOk(user: string, password: string): Promise<boolean> {
  try {
    // no-penalty: repeated failures from one client would otherwise be slowed down by seconds each (anvil).
    const { stdout } = await execFileAsync("doveadm", [
      "-c",
      dovecotConf(l),
      "auth",
      "test",
      "-x",
      "no-penalty",
      user,
      password,
    ]);
    return stdout.includes("auth succeeded");
  } catch {
    return false;
  }
}

export function message(from: string, to: string, subject: string, body = "Treść testowa.\n") {
  // A well-formed message: Rspamd scores it about 0 (the spam filter itself is tested in antispam.test.ts).
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n${body}`;
}

export const hasSubject = (email: string, subject: string, folder = "") =>
  readMessages(l, email, folder).some((m) => m.includes(`Subject: ${subject}`));

/** Waits until the mail system has moved past the deliveries so far, and any Sieve reply they caused. */
export const settle = () => settleMail(l, `znacznik@${A}`);

export async function seed() {
  await cli("domain", "add", A, "--postmaster-password", PASSWORD.postmaster);
  // Of A's customer: their catchalls of type 2 and 3 name A (docs/customers.md).
  for (const d of ["beta.test", "gamma.test", "delta.test"]) {
    await cli("domain", "add", d, "--postmaster-password", PASSWORD.postmaster, "--customer", A);
  }
  const alpha = await domain(A);
  postmaster = { account: await getAccountOrThrow(db, alpha, "postmaster"), domain: A, isPostmaster: true };
  await createAccount(db, alpha, "jan", {
    password: PASSWORD.jan,
    capacity: 1,
    usage_notification_level: 20,
    inbox_delete_after: 30,
  });
  await createAccount(db, alpha, "anna", {
    password: PASSWORD.other,
    capacity: 2048,
    forwards: [`ewa@${A}`],
    keep_mail: 1,
  });
  await createAccount(db, alpha, "piotr", { password: PASSWORD.other, forwards: [`ewa@${A}`], keep_mail: 0 });
  // Forward-only with its spam filter off: its Sieve script forwards all of it as it came.
  await createAccount(db, alpha, "pawel", {
    password: PASSWORD.other,
    forwards: [`ewa@${A}`],
    keep_mail: 0,
    spam_enabled: 0,
  });
  await createAccount(db, alpha, "ewa", { password: PASSWORD.other });
  await createAccount(db, alpha, "catchall", { password: PASSWORD.other });
  await createAccount(db, alpha, "gone", { password: PASSWORD.other });
  await createAccount(db, alpha, "zablokowany", {
    password: PASSWORD.other,
    blocked: 1,
    forwards: [`ewa@${A}`],
    keep_mail: 0,
  });
  await createAccount(db, alpha, "wygasly", { password: PASSWORD.other, expiration_date: "2020-01-01" });
  await createAccount(db, alpha, "znacznik", {
    password: PASSWORD.other,
    spam_enabled: 0,
    spam_rbl_enabled: 0,
    spam_spf_enabled: 0,
  });
  await createAlias(db, alpha, "kontakt", { target: `jan@${A}` });
  await createMailingList(db, alpha, "wszyscy", {
    privacy_mode: 0,
    accounts: [`jan@${A}`, `ewa@${A}`],
    moderators: [`anna@${A}`],
  });
  await createMailingList(db, alpha, "ogloszenia", {
    privacy_mode: 1,
    accounts: [`jan@${A}`],
    moderators: [`anna@${A}`],
  });
  await updateDomain(db, alpha, { catchall_type: 1, catchall_address: `catchall@${A}` });
  await updateDomain(db, await domain("beta.test"), { catchall_type: 2, catchall_address: `jan@${A}` });
  await updateDomain(db, await domain("gamma.test"), { catchall_type: 3, catchall_address: A });
}

/** The sandbox DNS's standing records: A's senders pass SPF from 127.0.0.1 (Rspamd's R_SPF_ALLOW). */
export const SENDER_SPF: DnsRecords = { [A]: { TXT: ["v=spf1 ip4:127.0.0.1 -all"] } };

/** Seeds the database and starts the whole mail system, as `mailserver sandbox` runs it. */
export async function setUp() {
  const root = newMailTestRoot("mailadmin-mail-");
  process.env.DATABASE_PATH = path.join(root, "db", "mail.db");
  db = await openTestDatabase(process.env.DATABASE_PATH);
  await seed();
  // The whole mail system, as `mailserver sandbox` runs it: configured by `mailserver config`'s generator. Rspamd
  // checks SPF for the loopback client as for any other, and A's senders pass it: the autoresponder answers only a
  // verified envelope sender (docs/mail-server.md, Autoresponder), as a real sender domain publishing SPF would be.
  l = await startMailSystem(root, { authChecksForLoopback: true });
  writeDnsRecords(l.dnsRecords, SENDER_SPF);
}

export async function tearDown() {
  if (!l) return;
  await l.sandbox.stop();
  await closeTestDatabase(db);
  if (!process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(path.dirname(l.root), { recursive: true, force: true });
}
