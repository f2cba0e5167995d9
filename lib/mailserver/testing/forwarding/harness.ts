// The forwarding tests' shared state (forwarding.test.ts): one sandbox, a domain whose accounts forward, aliases
// that lead back, and helpers that send a message and read where it went.
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import type { Principal } from "@/lib/server/caller/auth";
import { createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import { aliases } from "@/db/schema";
import { createAlias } from "@/lib/server/resources/aliases";
import { searchKey } from "@/lib/server/resources/page";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { writeDnsRecords } from "../../sandbox/dns-server";
import { maildirNew } from "../../sandbox/outbound-sink";
import {
  closeTestDatabase,
  newMailTestRoot,
  openTestDatabase,
  sandboxLog,
  settleMail,
  smtpTry,
  startMailSystem,
  type MailTestLayout,
  type SmtpOutcome,
} from "../mail-daemons";

export const D = "fwd.test";
export const PW = "Konto-pass1";
export let l: MailTestLayout;
export let db: Db;
let counter = 0;

const domain = () => getDomainOrThrow(db, D);
const admin = async (): Promise<Principal> => ({
  account: await getAccountOrThrow(db, await domain(), "postmaster"),
  domain: D,
  isPostmaster: true,
});
export const setAccount = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, await admin(), await domain(), [name], body);
export const addAccount = async (name: string, body: Record<string, unknown> = {}) =>
  createAccount(db, await domain(), name, { password: PW, ...body });
export const addAlias = async (name: string, target: string) => createAlias(db, await domain(), name, { target });
/**
 * An alias written straight into the table, past the API's refusal of a round through it (aliasTargetLoop): what data
 * from before that refusal, or a round another domain's change closed, holds, and what the RCPT check must refuse.
 */
export async function addAliasRow(name: string, target: string) {
  const d = await domain();
  await db
    .insert(aliases)
    .values({ domainId: d.id, name, email: `${name}@${D}`, target, searchKey: searchKey(name, target) });
}

/** A well-formed message; with `spamScore`, the sandbox's Rspamd adds that much to its score. */
export function message(from: string, to: string[], subject: string, spamScore?: number) {
  const extra = spamScore === undefined ? "" : `X-Sandbox-Spam-Score: ${spamScore}\n`;
  return (
    `From: <${from}>\nTo: ${to.map((t) => `<${t}>`).join(", ")}\nSubject: ${subject}\n` +
    `Message-ID: <${subject.replace(/\W/g, "")}.${Date.now()}.${counter++}@client.test>\nDate: ${new Date().toUTCString()}\n` +
    `MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n${extra}\nA test message.\n`
  );
}

export const send = (from: string, to: string[], subject: string, spamScore?: number): Promise<SmtpOutcome> =>
  smtpTry(l.ports.smtp, from, to, message(from, to, subject, spamScore));

/** The same from a logged-in user of this server (SMTP AUTH on the submission port). */
export const sendLoggedIn = (user: string, to: string[], subject: string): Promise<SmtpOutcome> =>
  smtpTry(l.ports.submission, user, to, message(user, to, subject), { user, pass: PW });

export const MARKER = `znacznik@${D}`;
export const settle = () => settleMail(l, MARKER, 60_000);

/** Postfix's log of the sandbox. */
export const postfixLog = () => sandboxLog(l, "postfix.log");

/** What left for other providers (the sandbox's outbound Maildir): envelope recipients and the message. */
export function outbound(): { from: string; to: string[]; raw: string }[] {
  return maildirNew(l.outbound).map((f) => {
    const file = fs.readFileSync(f, "utf8");
    const from = /^X-Sandbox-Envelope-From: <([^>]*)>\r?\n/m.exec(file)![1]!;
    const to = [.../^X-Sandbox-Envelope-To: (.*)\r?\n/m.exec(file)![1]!.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
    return { from, to, raw: file };
  });
}

export async function setUp() {
  const root = newMailTestRoot("mailadmin-forwarding-");
  db = await openTestDatabase(path.join(root, "db", "mail.db"));
  await runCommand(db, ["domain", "add", D, "--postmaster-password", "Admin-pass1"]);
  await addAccount("znacznik", { spam_enabled: 0 });
  // Rspamd checks SPF for the loopback client as for any other, and outside.test's senders pass it: the
  // autoresponder answers only a verified envelope sender (docs/mail-server.md, Autoresponder).
  l = await startMailSystem(root, { defaults: { rbl: 0, spf: 0, greylist: 0 }, authChecksForLoopback: true });
  writeDnsRecords(l.dnsRecords, { "outside.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] } });
}

export async function tearDown() {
  await l?.sandbox.stop();
  await closeTestDatabase(db);
  if (l && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(path.dirname(l.root), { recursive: true, force: true });
}
