// Every anti-spam field in real mail: the sandbox's Postfix, Rspamd (milter), policy service, Dovecot and
// Sieve, configured by `mailserver config`, over a database changed only through the services the API calls. The
// sandbox's Rspamd adds X-Sandbox-Spam-Score to a message's score; its DNS resolver serves the SPF and RBL records.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains } from "@/db/schema";
import { runCommand } from "@/lib/cli/commands";
import {
  accountRecord,
  createAccount,
  deleteAccounts,
  getAccountOrThrow,
  updateAccounts,
} from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow, toDomainRecord, updateDomain } from "@/lib/server/resources/domains";
import { spamDefaults } from "@/lib/cli/sandbox";
import { writeDnsRecords } from "./sandbox/dns-server";
import { SANDBOX_RBL_ZONE } from "./sandbox/sandbox";
import {
  closeTestDatabase,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  readMessages,
  settleMail,
  smtpTry,
  startMailSystem,
  type MailTestLayout,
  type SmtpOutcome,
} from "./testing/mail-daemons";

vi.mock("server-only", () => ({}));

// The server's defaults: read by the API (spam_*_default) and by the sandbox's policy service alike.
process.env.SPAM_GREYLIST_DEFAULT = "1";
process.env.SPAM_SPF_DEFAULT = "1";
process.env.SPAM_RBL_DEFAULT = "1";

const missing = missingMailPackages();
if (missing.length) console.warn(`anti-spam tests SKIPPED: Debian packages missing: ${missing.join(" ")}`);

/** Accounts filter; greylisting is off at the domain (its own tests use G). */
const S = "spam.test";
/** Greylisting: the domain says -1, so the server's default (1 in this sandbox) applies. */
const G = "grey.test";
/** spam_enabled 0 for the whole domain. */
const OFF = "nofilter.test";
const PW = "Spam-pass1";
const LEVELS = [2, 5, 7, 9] as const;

let l: MailTestLayout;
let db: Db;
/** The score Rspamd gives the test message without the sandbox header (a few tenths around 0). */
let base = 0;
let counter = 0;

const domain = (name: string) => getDomainOrThrow(db, name);
const admin = async (d: string): Promise<Principal> => ({
  account: await getAccountOrThrow(db, await domain(d), "postmaster"),
  domain: d,
  isPostmaster: true,
});
const setAccount = async (d: string, name: string, body: Record<string, unknown>) =>
  updateAccounts(db, await admin(d), await domain(d), [name], body);
const setDomain = async (d: string, body: Record<string, unknown>) => updateDomain(db, await domain(d), body);

/** A well-formed message; `score` (when given) is the total score Rspamd is to reach. */
function message(from: string, to: string[], subject: string, score?: number) {
  const extra = score === undefined ? "" : `X-Sandbox-Spam-Score: ${(score - base).toFixed(2)}\n`;
  return (
    `From: <${from}>\nTo: ${to.map((t) => `<${t}>`).join(", ")}\nSubject: ${subject}\n` +
    `Message-ID: <${subject.replace(/\W/g, "")}.${Date.now()}.${counter++}@client.test>\nDate: ${new Date().toUTCString()}\n` +
    `MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n${extra}\nA test message.\n`
  );
}

const send = (from: string, to: string[], subject: string, score?: number): Promise<SmtpOutcome> =>
  smtpTry(l.ports.smtp, from, to, message(from, to, subject, score));

/** settle()'s markers go to an inbox that no anti-spam setting touches. */
const settle = () => settleMail(l, `znacznik@${S}`);
/** Greylisting's clock: the real one plus what the tests move it on by. */
let clockOffsetMs = 0;

/** Where a subject landed for an account: "inbox", "spam", "both" or "none"; and the inbox copy's Subject line. */
function landed(email: string, subject: string) {
  const find = (folder: string) =>
    readMessages(l, email, folder).find((m) => m.includes(`${subject}\n`) || m.includes(`${subject}\r\n`));
  const inbox = find("");
  const spam = find("Spam");
  const where = inbox && spam ? "both" : inbox ? "inbox" : spam ? "spam" : "none";
  return { where, subjectLine: /^Subject: (.*)$/m.exec(inbox ?? spam ?? "")?.[1] };
}

const codes = (o: SmtpOutcome) => Object.fromEntries(o.refused.map((r) => [r.address, r.code]));

describe.skipIf(missing.length > 0)("anti-spam settings in real mail", () => {
  beforeAll(async () => {
    const root = newMailTestRoot("mailadmin-antispam-");
    db = await openTestDatabase(path.join(root, "db", "mail.db"));
    for (const d of [S, G, OFF]) await runCommand(db, ["domain", "add", d, "--postmaster-password", PW]);
    await setDomain(S, { spam_greylist_enabled: 0 });
    await setDomain(OFF, { spam_greylist_enabled: 0, spam_enabled: 0 });
    for (const h of LEVELS)
      await createAccount(db, await domain(S), `h${h}`, { password: PW, spam_hits: h, spam_rule: "move" });
    await createAccount(db, await domain(S), "tagger", { password: PW, spam_hits: 5, spam_rule: "tag" });
    await createAccount(db, await domain(S), "mover", { password: PW, spam_hits: 5, spam_rule: "move" });
    await createAccount(db, await domain(S), "nofilter", { password: PW, spam_enabled: 0, spam_hits: 2 });
    await createAccount(db, await domain(S), "friendly", {
      password: PW,
      spam_hits: 2,
      spam_white_list: ["friend@outside.test", "trusted.test"],
    });
    await createAccount(db, await domain(S), "picky", {
      password: PW,
      spam_black_list: ["pest@outside.test", "junk.test"],
    });
    await createAccount(db, await domain(S), "plain", { password: PW });
    await createAccount(db, await domain(S), "changing", { password: PW, spam_hits: 9 });
    await createAccount(db, await domain(S), "spfoff", { password: PW, spam_spf_enabled: 0, spam_rbl_enabled: 0 });
    await createAccount(db, await domain(S), "spfwhite", {
      password: PW,
      spam_spf_whitelist: ["spf-fail.test"],
      spam_rbl_whitelist: ["rblfriend@outside.test"],
    });
    await createAccount(db, await domain(OFF), "anyone", { password: PW, spam_hits: 2 });
    await createAccount(db, await domain(G), "inherits", { password: PW });
    await createAccount(db, await domain(G), "greyoff", { password: PW, spam_greylist_enabled: 0 });
    await createAccount(db, await domain(G), "greyon", { password: PW, spam_greylist_enabled: 1 });
    await createAccount(db, await domain(G), "greywhite", { password: PW, spam_greylist_whitelist: ["outside.test"] });
    await createAccount(db, await domain(S), "greyexplicit", { password: PW, spam_greylist_enabled: 1 });
    await createAccount(db, await domain(S), "znacznik", {
      password: PW,
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
  }, 240_000);

  afterAll(async () => {
    await l?.sandbox.stop();
    await closeTestDatabase(db);
    if (l && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(path.dirname(l.root), { recursive: true, force: true });
  }, 60_000);

  it("spam_hits 2, 5, 7, 9: a score just under each stays in the inbox, from the score on it is spam (one message, four accounts)", async () => {
    const to = LEVELS.map((h) => `h${h}@${S}`);
    const sent: { subject: string; score: number }[] = [];
    for (const h of LEVELS) {
      for (const score of [h - 0.1, h, h + 0.1]) {
        const subject = `level-${h}-${score.toFixed(1)}`;
        expect((await send("sender@outside.test", to, subject, score)).accepted).toHaveLength(4);
        sent.push({ subject, score });
      }
    }
    await settle();
    for (const { subject, score } of sent) {
      for (const h of LEVELS) {
        expect({ subject, account: h, where: landed(`h${h}@${S}`, subject).where }).toEqual({
          subject,
          account: h,
          where: score >= h - 1e-9 ? "spam" : "inbox",
        });
      }
    }
    // The score headers the Sieve script compares: hundredths, and readable.
    const one = readMessages(l, `h2@${S}`, "Spam").find((m) => m.includes("level-5-5.1"))!;
    expect(one).toMatch(/^X-Mailadmin-Spam-Centiscore: 510$/m);
    expect(one).toMatch(/^X-Spam-Score: 5\.10$/m);
  });

  it("spam_rule tag puts [SPAM] into the subject in the inbox, move files into Spam; spam_enabled 0 does neither", async () => {
    const to = [`tagger@${S}`, `mover@${S}`, `nofilter@${S}`];
    await send("sender@outside.test", to, "rule-high", 12);
    await send("sender@outside.test", to, "rule-low", 3);
    await settle();
    expect(landed(`tagger@${S}`, "rule-high")).toEqual({ where: "inbox", subjectLine: "[SPAM] rule-high" });
    expect(landed(`mover@${S}`, "rule-high")).toEqual({ where: "spam", subjectLine: "rule-high" });
    expect(landed(`nofilter@${S}`, "rule-high")).toEqual({ where: "inbox", subjectLine: "rule-high" });
    expect(landed(`tagger@${S}`, "rule-low")).toEqual({ where: "inbox", subjectLine: "rule-low" });
    expect(landed(`mover@${S}`, "rule-low").where).toBe("inbox");
  });

  it("spam_enabled 0 on the domain turns the filter off for its accounts", async () => {
    await send("sender@outside.test", [`anyone@${OFF}`], "domain-off", 15);
    await settle();
    expect(landed(`anyone@${OFF}`, "domain-off").where).toBe("inbox");
    await setDomain(OFF, { spam_enabled: 1 });
    await send("sender@outside.test", [`anyone@${OFF}`], "domain-on", 15);
    await settle();
    expect(landed(`anyone@${OFF}`, "domain-on").where).toBe("spam");
  });

  it("the white list (an address, a domain, and the domain's list) beats a high score", async () => {
    await setDomain(S, { spam_white_list: ["partner.test"] });
    try {
      await send("friend@outside.test", [`friendly@${S}`, `mover@${S}`], "white-address", 20);
      await send("anyone@trusted.test", [`friendly@${S}`], "white-domain", 20);
      await send("someone@partner.test", [`mover@${S}`], "white-domain-level", 20);
      await send("stranger@outside.test", [`friendly@${S}`], "not-white", 20);
      await settle();
      expect(landed(`friendly@${S}`, "white-address").where).toBe("inbox");
      // The same message to an account without that white list is spam: the verdict is per recipient.
      expect(landed(`mover@${S}`, "white-address").where).toBe("spam");
      expect(landed(`friendly@${S}`, "white-domain").where).toBe("inbox");
      expect(landed(`mover@${S}`, "white-domain-level").where).toBe("inbox");
      expect(landed(`friendly@${S}`, "not-white").where).toBe("spam");
    } finally {
      await setDomain(S, { spam_white_list: [] });
    }
  });

  it("the black list refuses an address and a domain at SMTP when every recipient refuses it, else skips only that recipient", async () => {
    const alone = await send("pest@outside.test", [`picky@${S}`], "black-alone");
    expect(alone.accepted).toEqual([]);
    expect(codes(alone)[`picky@${S}`]).toBeGreaterThanOrEqual(500);
    const byDomain = await send("bulk@junk.test", [`picky@${S}`], "black-domain");
    expect(byDomain.accepted).toEqual([]);
    const mixed = await send("pest@outside.test", [`picky@${S}`, `plain@${S}`], "black-mixed");
    expect(mixed.accepted).toEqual([`plain@${S}`]);
    expect(codes(mixed)[`picky@${S}`]).toBeGreaterThanOrEqual(500);
    await settle();
    expect(landed(`picky@${S}`, "black-mixed").where).toBe("none");
    expect(landed(`plain@${S}`, "black-mixed").where).toBe("inbox");
    expect(landed(`picky@${S}`, "black-alone").where).toBe("none");
  });

  it("the domain's black list (by domain and by address) applies to every account; the white list beats it", async () => {
    await setDomain(S, { spam_black_list: ["spammer.test", "nuisance@outside.test"] });
    try {
      const r = await send("x@spammer.test", [`plain@${S}`, `mover@${S}`], "domain-black");
      expect(r.accepted).toEqual([]);
      expect(Object.keys(codes(r)).sort()).toEqual([`mover@${S}`, `plain@${S}`]);
      expect((await send("nuisance@outside.test", [`plain@${S}`], "domain-black-address")).accepted).toEqual([]);
      await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test", "x@spammer.test"] });
      expect((await send("x@spammer.test", [`friendly@${S}`], "black-but-white")).accepted).toEqual([`friendly@${S}`]);
    } finally {
      await setDomain(S, { spam_black_list: [] });
    }
  });

  it("greylisting: on defers the first attempt with 4xx and accepts the retry after greylist_delay_s; off, inherited, white-listed", async () => {
    const sender = `grey-${Date.now()}@outside.test`;
    const first = await send(sender, [`greyon@${G}`, `greyoff@${G}`, `inherits@${G}`, `greywhite@${G}`], "grey-1");
    // greyoff (0) and greywhite (sender's domain on its greylist white list) take it at once.
    expect(first.accepted.sort()).toEqual([`greyoff@${G}`, `greywhite@${G}`]);
    expect(codes(first)).toEqual({ [`greyon@${G}`]: 450, [`inherits@${G}`]: 450 });
    // Too early: still deferred.
    const early = await send(sender, [`greyon@${G}`, `inherits@${G}`], "grey-2");
    expect(early.accepted).toEqual([]);
    expect(codes(early)).toEqual({ [`greyon@${G}`]: 450, [`inherits@${G}`]: 450 });
    // The wait passes on the policy service's clock, not in real time.
    clockOffsetMs += l.sandbox.info.greylist_delay_s * 1000 + 300;
    const retry = await send(sender, [`greyon@${G}`, `inherits@${G}`], "grey-3");
    expect(retry.accepted.sort()).toEqual([`greyon@${G}`, `inherits@${G}`]);
    await settle();
    expect(landed(`greyon@${G}`, "grey-3").where).toBe("inbox");
    // In a domain with greylisting off (S), an account's own 1 still greylists; -1 there means off.
    const other = await send(sender, [`greyexplicit@${S}`, `plain@${S}`], "grey-domain-off");
    expect(other.accepted).toEqual([`plain@${S}`]);
    expect(codes(other)).toEqual({ [`greyexplicit@${S}`]: 450 });
    // An address that does not exist is refused at once (550), not greylisted first (nor kept in the greylist).
    const unknown = await send(`grey-unknown-${Date.now()}@outside.test`, [`nobody-here@${G}`], "grey-unknown");
    expect(codes(unknown)).toEqual({ [`nobody-here@${G}`]: 550 });
  }, 30_000);

  it("an alias or catchall that leads to an address gone from a domain hosted here is refused at RCPT (550), not bounced later", async () => {
    // Contract §9: another domain deleting the account leaves this domain's alias to it, and mail to it is refused
    // like mail to any unknown address. Greylisting is off in S, so what is accepted is accepted at once.
    await createAccount(db, await domain(G), "cel", { password: PW });
    await createAlias(db, await domain(S), "martwy", { target: `cel@${G}` });
    await createAlias(db, await domain(S), "posredni", { target: `martwy@${S}` });
    await createAlias(db, await domain(S), "daleki", { target: "ktos@outside.test" });
    const sender = `dest-${Date.now()}@outside.test`;
    // Nothing is delivered to cel first: a copy still in the queue when the account goes is deferred, and the queue
    // that later tests wait to empty would not empty.
    await deleteAccounts(db, await domain(G), ["cel"]);
    const dead = await send(sender, [`martwy@${S}`, `posredni@${S}`, `daleki@${S}`, `plain@${S}`], "dest-dead");
    expect(codes(dead)).toEqual({ [`martwy@${S}`]: 550, [`posredni@${S}`]: 550 });
    expect(dead.accepted.sort()).toEqual([`daleki@${S}`, `plain@${S}`]);
    await settle();
    // A catchall to another domain's same-named account that does not exist there: refused.
    // (Set in the table: the API allows types 2 and 3 only between domains of one customer, which these are not.)
    const catchall = (type: number, address: string) =>
      db.update(domains).set({ catchallType: type, catchallAddress: address }).where(eq(domains.name, S));
    await catchall(3, OFF);
    try {
      const viaCatchall = await send(sender, [`nieznany@${S}`], "dest-catchall");
      expect(codes(viaCatchall)).toEqual({ [`nieznany@${S}`]: 550 });
    } finally {
      await catchall(0, "");
    }
  });

  it("an alias or catchall of an account applies that account's black list, white list, greylisting, SPF and RBL settings", async () => {
    for (const [alias, target] of [
      ["picky-al", "picky"],
      ["grey-al", "greyexplicit"],
      ["spfoff-al", "spfoff"],
      ["friendly-al", "friendly"],
    ]) {
      await createAlias(db, await domain(S), alias!, { target: `${target}@${S}` });
    }
    // A domain whose catchall (type 1) is an account with a black list; greylisting off at the domain.
    const C = "catch.test";
    await runCommand(db, ["domain", "add", C, "--postmaster-password", PW]);
    await setDomain(C, { spam_greylist_enabled: 0 });
    await createAccount(db, await domain(C), "wybredny", { password: PW, spam_black_list: ["pest@outside.test"] });
    await setDomain(C, { catchall_type: 1, catchall_address: `wybredny@${C}` });

    // Black list: the account's, through its alias and through the catchall; the others take the message.
    const black = await send("pest@outside.test", [`picky-al@${S}`, `plain@${S}`], "alias-black");
    expect(codes(black)[`picky-al@${S}`]).toBeGreaterThanOrEqual(500);
    expect(black.accepted).toEqual([`plain@${S}`]);
    const caught = await send("pest@outside.test", [`whoever@${C}`], "catchall-black");
    expect(codes(caught)[`whoever@${C}`]).toBeGreaterThanOrEqual(500);
    expect((await send("someone@outside.test", [`whoever@${C}`], "catchall-ok")).accepted).toEqual([`whoever@${C}`]);
    // Greylisting: the account's 1 over its domain's 0.
    const grey = await send(`alias-grey-${Date.now()}@outside.test`, [`grey-al@${S}`, `plain@${S}`], "alias-grey");
    expect(codes(grey)).toEqual({ [`grey-al@${S}`]: 450 });
    // White list: the account's beats the domain's black list.
    await setAccount(S, "friendly", { spam_white_list: ["friend@outside.test", "trusted.test", "x@spammer.test"] });
    await setDomain(S, { spam_black_list: ["spammer.test"] });
    try {
      const white = await send("x@spammer.test", [`friendly-al@${S}`, `plain@${S}`], "alias-white");
      expect(white.accepted).toEqual([`friendly-al@${S}`]);
    } finally {
      await setDomain(S, { spam_black_list: [] });
    }
    // SPF and RBL: the account's 0 over the domain's (server default) 1.
    writeDnsRecords(l.dnsRecords, {
      "spf-fail.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
      [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] },
    });
    try {
      const spf = await send("someone@spf-fail.test", [`spfoff-al@${S}`, `plain@${S}`], "alias-spf");
      expect(spf.accepted).toEqual([`spfoff-al@${S}`]);
      const rbl = await send("someone@outside.test", [`spfoff-al@${S}`, `plain@${S}`], "alias-rbl");
      expect(rbl.accepted).toEqual([`spfoff-al@${S}`]);
      expect(rbl.refused[0]!.response).toMatch(/listed in/);
    } finally {
      writeDnsRecords(l.dnsRecords, {});
    }
    await settle();
    expect(landed(`picky@${S}`, "alias-black").where).toBe("none");
    expect(landed(`wybredny@${C}`, "catchall-black").where).toBe("none");
    expect(landed(`wybredny@${C}`, "catchall-ok").where).toBe("inbox");
    expect(landed(`spfoff@${S}`, "alias-spf").where).not.toBe("none");
  });

  it("greylisting inherited from the domain: domain 0 turns it off for its -1 accounts, domain 1 on", async () => {
    await setDomain(G, { spam_greylist_enabled: 0 });
    const sender = `grey-dom-${Date.now()}@outside.test`;
    expect((await send(sender, [`inherits@${G}`], "grey-dom-0")).accepted).toEqual([`inherits@${G}`]);
    await setDomain(G, { spam_greylist_enabled: 1 });
    const sender2 = `grey-dom1-${Date.now()}@outside.test`;
    expect(codes(await send(sender2, [`inherits@${G}`], "grey-dom-1"))).toEqual({ [`inherits@${G}`]: 450 });
    await setDomain(G, { spam_greylist_enabled: -1 });
  });

  it("SPF: a hard fail is refused; spam_spf_enabled 0 and the SPF white list let it through; a pass is accepted", async () => {
    writeDnsRecords(l.dnsRecords, {
      "spf-fail.test": { TXT: ["v=spf1 ip4:192.0.2.1 -all"] },
      "spf-pass.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
    });
    try {
      const r = await send("someone@spf-fail.test", [`plain@${S}`, `spfoff@${S}`, `spfwhite@${S}`], "spf-fail");
      expect(r.accepted.sort()).toEqual([`spfoff@${S}`, `spfwhite@${S}`]);
      expect(codes(r)[`plain@${S}`]).toBeGreaterThanOrEqual(500);
      expect(r.refused[0]!.response).toMatch(/SPF/);
      expect((await send("someone@spf-pass.test", [`plain@${S}`], "spf-pass")).accepted).toEqual([`plain@${S}`]);
      await setDomain(S, { spam_spf_enabled: 0 });
      expect((await send("someone@spf-fail.test", [`plain@${S}`], "spf-domain-off")).accepted).toEqual([`plain@${S}`]);
    } finally {
      await setDomain(S, { spam_spf_enabled: -1 });
      writeDnsRecords(l.dnsRecords, {});
    }
  });

  it("RBL: a listed client is refused; spam_rbl_enabled 0 and the RBL white list let it through", async () => {
    writeDnsRecords(l.dnsRecords, { [`1.0.0.127.${SANDBOX_RBL_ZONE}`]: { A: ["127.0.0.2"] } });
    try {
      const r = await send("someone@outside.test", [`plain@${S}`, `spfoff@${S}`], "rbl-listed");
      expect(r.accepted).toEqual([`spfoff@${S}`]);
      expect(r.refused[0]!.response).toMatch(new RegExp(`listed in ${SANDBOX_RBL_ZONE.replace(/\./g, "\\.")}`));
      expect((await send("rblfriend@outside.test", [`spfwhite@${S}`], "rbl-white")).accepted).toEqual([
        `spfwhite@${S}`,
      ]);
    } finally {
      writeDnsRecords(l.dnsRecords, {});
    }
    expect((await send("someone@outside.test", [`plain@${S}`], "rbl-unlisted")).accepted).toEqual([`plain@${S}`]);
  });

  it("a setting changed through the service the API calls applies to the next message, without any reload", async () => {
    await send("sender@outside.test", [`changing@${S}`], "change-1", 6);
    await settle();
    expect(landed(`changing@${S}`, "change-1").where).toBe("inbox");
    await setAccount(S, "changing", { spam_hits: 5 });
    await send("sender@outside.test", [`changing@${S}`], "change-2", 6);
    await setAccount(S, "changing", { spam_black_list: ["sender@outside.test"] });
    const refused = await send("sender@outside.test", [`changing@${S}`], "change-3", 6);
    await settle();
    expect(landed(`changing@${S}`, "change-2").where).toBe("spam");
    expect(refused.accepted).toEqual([]);
    await setAccount(S, "changing", { spam_black_list: [], spam_rule: "tag" });
    await send("sender@outside.test", [`changing@${S}`], "change-4", 6);
    await settle();
    expect(landed(`changing@${S}`, "change-4")).toEqual({ where: "inbox", subjectLine: "[SPAM] change-4" });
  });

  it("spam_*_default report what the policy service applies: the server's setting, and the domain's value for an account", async () => {
    const record = await toDomainRecord(db, await domain(G));
    expect(record).toMatchObject({ spam_greylist_default: "1", spam_spf_default: "1", spam_rbl_default: "1" });
    expect(spamDefaults()).toEqual({ greylist: 1, spf: 1, rbl: 1 });
    await setDomain(G, { spam_greylist_enabled: 0 });
    const account = await accountRecord(db, await domain(G), await getAccountOrThrow(db, await domain(G), "inherits"));
    expect(account.spam_greylist_default).toBe(0);
    await setDomain(G, { spam_greylist_enabled: -1 });
    const again = await accountRecord(db, await domain(G), await getAccountOrThrow(db, await domain(G), "inherits"));
    expect(again.spam_greylist_default).toBe(1);
  });
});
