// Anti-spam cases' shared state: the sandbox started once for antispam.test.ts, its domains and accounts, and the
// helpers that send a message and say where it landed.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { createAccount, getAccountOrThrow, updateAccounts } from "@/lib/server/resources/accounts";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow, updateDomain } from "@/lib/server/resources/domains";
import { spamDefaults } from "@/lib/server/spam-defaults";
import {
  closeTestDatabase,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  settleMail,
  smtpTry,
  startMailSystem,
  type MailTestLayout,
  type SmtpOutcome,
} from "../mail-daemons";

/** Accounts filter; greylisting is off at the domain (its own tests use G). */
export const S = "spam.test";
/** Greylisting: the domain says -1, so the server's default (1 in this sandbox) applies. */
export const G = "grey.test";
/** spam_enabled 0 for the whole domain. */
export const OFF = "nofilter.test";
export const PW = "Spam-pass1";
export const LEVELS = [2, 5, 7, 9] as const;

export let l: MailTestLayout;
export let db: Db;
/** The score Rspamd gives the test message without the sandbox header (a few tenths around 0). */
let base = 0;
let counter = 0;

export const domain = (name: string) => getDomainOrThrow(db, name);
export const admin = async (d: string): Promise<Principal> => ({
  account: await getAccountOrThrow(db, await domain(d), "postmaster"),
  domain: d,
  isPostmaster: true,
});
export const setAccount = async (d: string, name: string, body: Record<string, unknown>) =>
  updateAccounts(db, await admin(d), await domain(d), [name], body);
export const setDomain = async (d: string, body: Record<string, unknown>) => updateDomain(db, await domain(d), body);
/** A new account of domain `d` with the tests' password and the given fields. */
export const addAccount = async (d: string, name: string, body: Record<string, unknown> = {}) =>
  createAccount(db, await domain(d), name, { password: PW, ...body });

/** A well-formed message; `score` (when given) is the total score Rspamd is to reach. */
export function message(from: string, to: string[], subject: string, score?: number) {
  const extra = score === undefined ? "" : `X-Sandbox-Spam-Score: ${(score - base).toFixed(2)}\n`;
  return (
    `From: <${from}>\nTo: ${to.map((t) => `<${t}>`).join(", ")}\nSubject: ${subject}\n` +
    `Message-ID: <${subject.replace(/\W/g, "")}.${Date.now()}.${counter++}@client.test>\nDate: ${new Date().toUTCString()}\n` +
    `MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extra}\nA test message.\n`
  );
}

export const send = (from: string, to: string[], subject: string, score?: number): Promise<SmtpOutcome> =>
  smtpTry(l.ports.smtp, from, to, message(from, to, subject, score));

/** The same, sent by a logged-in user of this server (SMTP AUTH on the submission port) from its own address. */
export const sendLoggedIn = (user: string, to: string[], subject: string): Promise<SmtpOutcome> =>
  smtpTry(l.ports.submission, user, to, message(user, to, subject), { user, pass: PW });

/** settle()'s markers go to an inbox that no anti-spam setting touches. */
export const settle = () => settleMail(l, `znacznik@${S}`);
/** Greylisting's clock: the real one plus what the tests move it on by. */
let clockOffsetMs = 0;
export const moveClock = (ms: number) => void (clockOffsetMs += ms);

/** Where a subject landed for an account: "inbox", "spam", "both" or "none"; and the inbox copy's Subject line. */
export function landed(email: string, subject: string) {
  const find = (folder: string) =>
    readMessages(l, email, folder).find((m) => m.includes(`${subject}\n`) || m.includes(`${subject}\r\n`));
  const inbox = find("");
  const spam = find("Spam");
  const where = inbox && spam ? "both" : inbox ? "inbox" : spam ? "spam" : "none";
  return { where, subjectLine: /^Subject: (.*)$/m.exec(inbox ?? spam ?? "")?.[1] };
}

export const codes = (o: SmtpOutcome) => Object.fromEntries(o.refused.map((r) => [r.address, r.code]));
/** Why each refused recipient was refused, read from the policy service's reply: "spf", "rbl", else the reply. */
export const refusedBy = (o: SmtpOutcome) =>
  Object.fromEntries(
    o.refused.map((r) => [
      r.address,
      /\bSPF\b/.test(r.response) ? "spf" : /\bis listed in\b/.test(r.response) ? "rbl" : `${r.code} ${r.response}`,
    ]),
  );

export async function setUp() {
  const root = newMailTestRoot("mailadmin-antispam-");
  db = await openTestDatabase(path.join(root, "db", "mail.db"));
  for (const d of [S, G, OFF]) await runCommand(db, ["domain", "add", d, "--postmaster-password", PW]);
  await setDomain(S, { spam_greylist_enabled: 0 });
  await setDomain(OFF, { spam_greylist_enabled: 0, spam_enabled: 0 });
  for (const h of LEVELS) await addAccount(S, `h${h}`, { spam_hits: h, spam_rule: "move" });
  await addAccount(S, "tagger", { spam_hits: 5, spam_rule: "tag" });
  await addAccount(S, "mover", { spam_hits: 5, spam_rule: "move" });
  await addAccount(S, "nofilter", { spam_enabled: 0, spam_hits: 2 });
  await addAccount(S, "friendly", { spam_hits: 2, spam_white_list: ["friend@outside.test", "trusted.test"] });
  await addAccount(S, "picky", { spam_black_list: ["pest@outside.test", "junk.test"] });
  await addAccount(S, "plain");
  await addAccount(S, "changing", { spam_hits: 9 });
  await addAccount(S, "spfoff", { spam_spf_enabled: 0, spam_rbl_enabled: 0 });
  await addAccount(S, "strict", { spam_spf_enabled: 1, spam_rbl_enabled: 1 });
  await addAccount(S, "spfwhite", {
    spam_spf_whitelist: ["spf-fail.test"],
    spam_rbl_whitelist: ["rblfriend@outside.test"],
  });
  await addAccount(OFF, "anyone", { spam_hits: 2 });
  await addAccount(G, "inherits");
  await addAccount(G, "greyoff", { spam_greylist_enabled: 0 });
  await addAccount(G, "greyon", { spam_greylist_enabled: 1 });
  await addAccount(G, "greywhite", { spam_greylist_whitelist: ["outside.test"] });
  await addAccount(S, "greyexplicit", { spam_greylist_enabled: 1 });
  await addAccount(S, "znacznik", {
    spam_enabled: 0,
    spam_spf_enabled: 0,
    spam_rbl_enabled: 0,
    spam_greylist_enabled: 0,
  });
  l = await startMailSystem(root, {
    defaults: spamDefaults(),
    greylistDelayS: 3,
    clock: () => Date.now() + clockOffsetMs,
  });

  // The base score of the test message, read from the headers Rspamd's milter wrote.
  const probe = await send("probe@outside.test", [`nofilter@${S}`], "probe-base");
  expect(probe.accepted).toEqual([`nofilter@${S}`]);
  await settle();
  const text = readMessages(l, `nofilter@${S}`).find((m) => m.includes("probe-base"))!;
  base = Number(/^X-Spam-Score: (-?[\d.]+)$/m.exec(text)![1]);
  expect(Math.abs(base)).toBeLessThan(1);
}

export async function tearDown() {
  await l?.sandbox.stop();
  await closeTestDatabase(db);
  if (l && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(path.dirname(l.root), { recursive: true, force: true });
}
