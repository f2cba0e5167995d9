// The mail server obeys the panel: real Postfix and Dovecot (Debian's packages), configured only by the files
// `mailserver config` writes, against a database changed only through the services and the CLI. On SQLite, and
// under `npm run test:mail:pg` on PostgreSQL (proxy:pgsql: maps, Dovecot's pgsql driver as the mail role).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accountRecord, createAccount, deleteAccounts, getAccountOrThrow } from "@/lib/server/resources/accounts";
import { updateDomain } from "@/lib/server/resources/domains";
import { createAlias } from "@/lib/server/resources/aliases";
import { VACATION_ADDRESSES_MAX } from "@/db/sieve-scripts-view";
import { onPostgres } from "@/e2e/support/test-database";
import { panelLogin, readCredentials } from "@/lib/server/caller/panel-login";
import { sha1Hex } from "@/lib/server/caller/password";
import { runHousekeeping } from "./housekeeping";
import { IMPORTED_SCHEMES } from "./imported-hashes";
import { writeDnsRecords } from "./sandbox/dns-server";
import { maildirNew } from "./sandbox/outbound-sink";
import { currentDkimKey, dkimRecord } from "./dkim";
import {
  dkimVerify,
  dovecotConf,
  maildirFiles,
  missingMailPackages,
  postmapQuery,
  readMessages,
  receiverSymbols,
  run,
  sandboxLog,
  sandboxTxtResolver,
  smtpTry,
  waitFor,
} from "./testing/mail-daemons";
import {
  A,
  PASSWORD,
  day,
  l,
  db,
  smtpSend,
  imapAppend,
  cli,
  domain,
  setAccount,
  doveadm,
  authOk,
  message,
  hasSubject,
  settle,
  SENDER_SPF,
  setUp,
  tearDown,
} from "./testing/mail-server/harness";
import { mailserverCheckCases } from "./testing/mail-server/check";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));
// `mailserver check` runs the CLI in its own process with 14 checks: tens of seconds on a busy host.
vi.setConfig({ testTimeout: 90_000 });

const missing = missingMailPackages();
if (missing.length) {
  console.warn(
    `mail-server tests SKIPPED: Debian packages missing: ${missing.join(" ")} (bash .ci/system-packages.sh installs them)`,
  );
}

describe.skipIf(missing.length > 0)("mail server on the panel's database", () => {
  beforeAll(setUp, 240_000);
  afterAll(tearDown, 60_000);

  describe("postmap -q on the generated lookup tables", () => {
    const alias = (key: string) => postmapQuery(l, "virtual-alias-maps", key)?.split(",").sort().join(",");

    it("knows the hosted domains and nothing else", () => {
      expect(postmapQuery(l, "virtual-mailbox-domains", A)).toBe(A);
      expect(postmapQuery(l, "virtual-mailbox-domains", "gamma.test")).toBe("gamma.test");
      expect(postmapQuery(l, "virtual-mailbox-domains", "unknown.test")).toBeUndefined();
    });

    it("gives every account a mailbox, and aliases none", () => {
      expect(postmapQuery(l, "virtual-mailbox-maps", `jan@${A}`)).toBe(`${A}/jan/`);
      expect(postmapQuery(l, "virtual-mailbox-maps", `zablokowany@${A}`)).toBe(`${A}/zablokowany/`);
      expect(postmapQuery(l, "virtual-mailbox-maps", `kontakt@${A}`)).toBeUndefined();
    });

    it("resolves accounts, an alias, forwards with and without keep_mail, and a blocked account's forward", () => {
      expect(alias(`jan@${A}`)).toBe(`jan@${A}`);
      expect(alias(`kontakt@${A}`)).toBe(`jan@${A}`);
      // Forwards, with a copy kept (anna) or not (its spam filter on, or off): Dovecot gets the message and the
      // account's Sieve script forwards it after the filter.
      expect(alias(`anna@${A}`)).toBe(`anna@${A}`);
      expect(alias(`piotr@${A}`)).toBe(`piotr@${A}`);
      expect(alias(`pawel@${A}`)).toBe(`pawel@${A}`);
      expect(alias(`zablokowany@${A}`)).toBe(`zablokowany@${A}`);
    });

    it("answers each catchall type", () => {
      expect(alias(`@${A}`)).toBe(`catchall@${A}`); // 1: an account of the domain
      expect(alias("@beta.test")).toBe(`jan@${A}`); // 2: an account elsewhere
      expect(alias("@gamma.test")).toBe(`@${A}`); // 3: the same name in another domain
      expect(alias("@delta.test")).toBeUndefined(); // 0: none
    });

    it("routes list addresses and their VERP bounce addresses to the list service, never expanding them", () => {
      for (const address of [`wszyscy@${A}`, `ogloszenia@${A}`, `wszyscy-bounces+jan=${A}@${A}`]) {
        expect(alias(address)).toBeUndefined();
        expect(postmapQuery(l, "list-addresses", address)).toBe(address);
        expect(postmapQuery(l, "list-transport", address)).toBe(`lmtp:inet:127.0.0.1:${l.sandbox.info.lists_lmtp}`);
      }
      expect(postmapQuery(l, "list-addresses", `wszyscy-other@${A}`)).toBeUndefined();
      // Not <user>=<host>: refused at RCPT, as the list service would refuse it (after acceptance, a bounce).
      for (const malformed of ["jan", "", "=", "jan=", `=${A}`])
        expect(postmapQuery(l, "list-addresses", `wszyscy-bounces+${malformed}@${A}`)).toBeUndefined();
      expect(postmapQuery(l, "list-transport", `jan@${A}`)).toBeUndefined();
      expect(postmapQuery(l, "list-transport", A)).toBeUndefined();
    });

    it("answers nothing for a deleted account", async () => {
      expect(postmapQuery(l, "virtual-mailbox-maps", `gone@${A}`)).toBe(`${A}/gone/`);
      await deleteAccounts(db, await domain(A), ["gone"]);
      expect(postmapQuery(l, "virtual-mailbox-maps", `gone@${A}`)).toBeUndefined();
      expect(postmapQuery(l, "virtual-alias-maps", `gone@${A}`)).toBeUndefined();
    });
  });

  describe("Dovecot logins and users", () => {
    it("accepts a password set through the service and refuses the old one", async () => {
      expect(await authOk(`jan@${A}`, PASSWORD.jan)).toBe(true);
      await setAccount("jan", { password: PASSWORD.janNew, password_retype: PASSWORD.janNew });
      expect(await authOk(`jan@${A}`, PASSWORD.janNew)).toBe(true);
      expect(await authOk(`jan@${A}`, PASSWORD.jan)).toBe(false);
    });

    it("takes the old password of an account imported with another system's hash at once, in every accepted scheme, and after its first panel sign-in", async () => {
      await cli("domain", "add", "import.test", "--postmaster-password", PASSWORD.postmaster);
      const lines = IMPORTED_SCHEMES.map((scheme, i) =>
        JSON.stringify({
          email: `u${i}@import.test`,
          password_hash: run("doveadm", ["pw", "-s", scheme, "-p", "Old-pass1"]).trim(),
          capacity: 1,
        }),
      );
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-import-")), "accounts.jsonl");
      fs.writeFileSync(file, lines.join("\n"));
      expect(await cli("account", "import", file)).toMatch(/^7 created, 0 already there, 0 failed$/m);
      for (const [i] of IMPORTED_SCHEMES.entries()) {
        expect(await authOk(`u${i}@import.test`, "Old-pass1")).toBe(true);
        expect(await authOk(`u${i}@import.test`, "Old-pass2")).toBe(false);
      }
      // The first panel sign-in replaces the MD5-CRYPT hash with SHA512-CRYPT of the same password: mail goes on.
      const md5 = `u${IMPORTED_SCHEMES.indexOf("MD5-CRYPT")}@import.test`;
      const body = { email: md5, digest: sha1Hex("Old-pass1"), password: "Old-pass1" };
      await panelLogin(db, readCredentials(body), "127.0.0.1", null);
      expect((await getAccountOrThrow(db, await domain("import.test"), md5.split("@")[0]!)).mailPasswordHash).toMatch(
        /^\{SHA512-CRYPT\}/,
      );
      expect(await authOk(md5, "Old-pass1")).toBe(true);
      expect(await authOk(md5, "Old-pass2")).toBe(false);
    });

    it("refuses blocked and expired accounts with their right password", async () => {
      expect(await authOk(`zablokowany@${A}`, PASSWORD.other)).toBe(false);
      expect(await authOk(`wygasly@${A}`, PASSWORD.other)).toBe(false);
      expect(await authOk(`ewa@${A}`, PASSWORD.other)).toBe(true);
    });

    it("shows the quota from capacity", async () => {
      expect(doveadm("user", "-f", "quota_rule", `jan@${A}`).trim()).toBe("*:storage=1M");
      expect(doveadm("user", "-f", "quota_rule", `anna@${A}`).trim()).toBe("*:storage=2048M");
      await setAccount("ewa", { capacity: 300 });
      expect(doveadm("user", "-f", "quota_rule", `ewa@${A}`).trim()).toBe("*:storage=300M");
    });
  });

  describe("SMTP delivery through Postfix into Dovecot's maildirs", () => {
    it("delivers to an account, an alias, forwards and catchalls", async () => {
      const send = (to: string, subject: string) =>
        smtpSend("sender@outside.test", [to], message("sender@outside.test", to, subject));
      await send(`jan@${A}`, "to-account");
      await send(`kontakt@${A}`, "to-alias");
      await send(`anna@${A}`, "to-forward-keep");
      await send(`piotr@${A}`, "to-forward-only");
      await send(`pawel@${A}`, "to-forward-only-unfiltered");
      await send(`nobody@${A}`, "to-catchall-1");
      await send("nobody@beta.test", "to-catchall-2");
      await send("jan@gamma.test", "to-catchall-3");
      await settle();

      expect(hasSubject(`jan@${A}`, "to-account")).toBe(true);
      expect(hasSubject(`jan@${A}`, "to-alias")).toBe(true);
      expect(hasSubject(`anna@${A}`, "to-forward-keep")).toBe(true);
      expect(hasSubject(`ewa@${A}`, "to-forward-keep")).toBe(true);
      expect(hasSubject(`ewa@${A}`, "to-forward-only")).toBe(true);
      expect(maildirFiles(l, `piotr@${A}`)).toHaveLength(0);
      expect(hasSubject(`ewa@${A}`, "to-forward-only-unfiltered")).toBe(true);
      expect(maildirFiles(l, `pawel@${A}`)).toHaveLength(0);
      expect(hasSubject(`catchall@${A}`, "to-catchall-1")).toBe(true);
      expect(hasSubject(`jan@${A}`, "to-catchall-2")).toBe(true);
      expect(hasSubject(`jan@${A}`, "to-catchall-3")).toBe(true);
    });

    it("delivered through smtpd, cleanup and trivial-rewrite chrooted in the queue directory, as Debian runs them", () => {
      const chroot = run("postconf", ["-c", l.postfix, "-F", "*/*/chroot"]);
      for (const service of ["127.0.0.1:" + l.ports.smtp + "/inet", "cleanup/unix", "rewrite/unix"]) {
        expect(chroot).toContain(`${service}/chroot = y`);
      }
      // The smtpd that took the mail above is still idle (max_idle): its root is the queue directory, where the
      // database's path does not exist; the lookups went through proxymap.
      const queue = fs.realpathSync(path.join(l.postfix, "queue"));
      const smtpdRoots = fs
        .readdirSync("/proc")
        .filter((pid) => /^\d+$/.test(pid))
        .flatMap((pid) => {
          try {
            const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
            const env = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
            const ours = cmd[0] === "smtpd" && env.includes(`MAIL_CONFIG=${l.postfix}`);
            return ours ? [fs.readlinkSync(`/proc/${pid}/root`)] : [];
          } catch {
            return [];
          }
        });
      expect(smtpdRoots.length).toBeGreaterThan(0);
      expect(new Set(smtpdRoots)).toEqual(new Set([queue]));
      expect(fs.existsSync(path.join(queue, l.db))).toBe(false);
    });

    it("refuses an unknown address in a domain without catchall during the SMTP dialogue", async () => {
      await expect(
        smtpSend("sender@outside.test", ["nobody@delta.test"], message("a@b.test", "nobody@delta.test", "x")),
      ).rejects.toThrow(/550/);
    });

    it("refuses an address extension (jan+tag@) as an unknown address: the snippet clears the recipient_delimiter = + of Debian's main.cf", async () => {
      await createAccount(db, await domain("delta.test"), "plus", { password: PASSWORD.other });
      await expect(
        smtpSend("sender@outside.test", ["plus+tag@delta.test"], message("a@b.test", "plus+tag@delta.test", "x")),
      ).rejects.toThrow(/550/);
    });

    it("keeps delivering to a blocked account but not its forward", async () => {
      await smtpSend(
        "sender@outside.test",
        [`zablokowany@${A}`],
        message("sender@outside.test", `zablokowany@${A}`, "to-blocked"),
      );
      await settle();
      expect(hasSubject(`zablokowany@${A}`, "to-blocked")).toBe(true);
      expect(hasSubject(`ewa@${A}`, "to-blocked")).toBe(false);
    });

    it("writes the stored size back to the usage the API reports", async () => {
      const big = `${"Duża wiadomość, linia wypełniająca.\n".repeat(8000)}`;
      await smtpSend("sender@outside.test", [`jan@${A}`], message("sender@outside.test", `jan@${A}`, "big-one", big));
      await settle();
      // Dovecot counts the message size with CRLF line ends (quota_vsizes): the file's bytes plus one per bare LF.
      const stored = maildirFiles(l, `jan@${A}`)
        .map((f) => fs.readFileSync(f))
        .reduce((sum, buf) => sum + buf.length + (buf.toString("latin1").match(/(?<!\r)\n/g)?.length ?? 0), 0);
      const row = await waitFor("quota write-back", async () => {
        const r = await getAccountOrThrow(db, await domain(A), "jan");
        return r.usageBytes === stored && r;
      });
      const record = await accountRecord(db, await domain(A), row);
      expect(record.usage).toBe(Math.floor((stored * 100) / 1048576));
      expect(record.usage).toBeGreaterThanOrEqual(20);
    });
  });

  describe("autoresponder as a Sieve vacation script", () => {
    it("replies inside its dates, once per sender, and not outside them", async () => {
      await setAccount("ewa", {
        autoresponder_mode: 1,
        autoresponder_start_date: day(-1),
        autoresponder_end_date: day(1),
        autoresponder_body: 'Jestem na urlopie "do jutra".',
      });
      const reply = (to: string) => readMessages(l, to).filter((m) => /^Auto-Submitted: auto-replied/im.test(m));

      await smtpSend(`jan@${A}`, [`ewa@${A}`], message(`jan@${A}`, `ewa@${A}`, "vacation-1"));
      await settle();
      expect(hasSubject(`ewa@${A}`, "vacation-1")).toBe(true);
      await waitFor("the vacation reply", () => reply(`jan@${A}`).length === 1);
      expect(reply(`jan@${A}`)[0]).toContain('Jestem na urlopie "do jutra".');

      await smtpSend(`jan@${A}`, [`ewa@${A}`], message(`jan@${A}`, `ewa@${A}`, "vacation-2"));
      await settle();
      expect(hasSubject(`ewa@${A}`, "vacation-2")).toBe(true);
      expect(reply(`jan@${A}`)).toHaveLength(1);

      // A new text is news: the sender it answered already gets it; so is the default text of an empty one.
      await setAccount("ewa", { autoresponder_body: "Wracam w poniedzialek." });
      await smtpSend(`jan@${A}`, [`ewa@${A}`], message(`jan@${A}`, `ewa@${A}`, "vacation-new-text"));
      await waitFor("the reply with the new text", () => reply(`jan@${A}`).length === 2);
      expect(reply(`jan@${A}`).filter((m) => m.includes("Wracam w poniedzialek."))).toHaveLength(1);
      await setAccount("ewa", { autoresponder_body: "" });
      await smtpSend(`jan@${A}`, [`ewa@${A}`], message(`jan@${A}`, `ewa@${A}`, "vacation-no-text"));
      await waitFor("the reply with the default text", () => reply(`jan@${A}`).length === 3);
      expect(
        reply(`jan@${A}`).filter((m) => m.includes("This is an automatic reply: the recipient is away")),
      ).toHaveLength(1);

      await setAccount("ewa", { autoresponder_start_date: "2020-01-01", autoresponder_end_date: "2020-01-10" });
      await smtpSend(`catchall@${A}`, [`ewa@${A}`], message(`catchall@${A}`, `ewa@${A}`, "vacation-3"));
      await settle();
      expect(hasSubject(`ewa@${A}`, "vacation-3")).toBe(true);
      expect(reply(`catchall@${A}`)).toHaveLength(0);
    });

    it("answers mail a catchall of type 1 or 2 brings to the account, as its other settings apply (contract §10)", async () => {
      // alpha.test's catchall (type 1) collects its unknown addresses into catchall@alpha.test; beta.test's (type 2)
      // into jan@alpha.test. The sender logs in, so it is verified.
      await setAccount("catchall", { autoresponder_mode: 1, autoresponder_body: "Odpowiedź na adres zbiorczy." });
      await setAccount("jan", { autoresponder_mode: 1, autoresponder_body: "Odpowiedź Jana." });
      const sender = "pisze@delta.test";
      await createAccount(db, await domain("delta.test"), "pisze", { password: PASSWORD.other });
      const repliesWith = (body: string) =>
        readMessages(l, sender).filter((m) => /^Auto-Submitted: auto-replied/im.test(m) && m.includes(body));
      try {
        for (const to of [`nieznany@${A}`, "ktokolwiek@beta.test"]) {
          const sent = await smtpTry(l.ports.submission, sender, [to], message(sender, to, `catchall ${to}`), {
            user: sender,
            pass: PASSWORD.other,
          });
          expect(sent.accepted).toEqual([to]);
        }
        await waitFor(
          "the reply of the type 1 catchall's account",
          () => repliesWith("Odpowiedź na adres zbiorczy.").length === 1,
        );
        await waitFor("the reply of the type 2 catchall's account", () => repliesWith("Odpowiedź Jana.").length === 1);
        expect(hasSubject(`catchall@${A}`, `catchall nieznany@${A}`)).toBe(true);
        expect(hasSubject(`jan@${A}`, "catchall ktokolwiek@beta.test")).toBe(true);
      } finally {
        await setAccount("catchall", { autoresponder_mode: 0 });
        await setAccount("jan", { autoresponder_mode: 0 });
      }
    });

    it(`answers mail sent to an alias past the ${VACATION_ADDRESSES_MAX} its script lists (an account with more aliases)`, async () => {
      const alpha = await domain(A);
      await createAccount(db, alpha, "aliasy", {
        password: PASSWORD.other,
        autoresponder_mode: 1,
        autoresponder_body: "Odpowiedź konta z wieloma aliasami.",
      });
      // The script lists the first VACATION_ADDRESSES_MAX in order: "a000"... come before "zz-ostatni".
      for (let i = 0; i < VACATION_ADDRESSES_MAX; i++)
        await createAlias(db, await domain(A), `a${String(i).padStart(3, "0")}`, { target: `aliasy@${A}` });
      await createAlias(db, await domain(A), "zz-ostatni", { target: `aliasy@${A}` });
      // The script as Dovecot reads it (its dict, a separate one for the scripts on PostgreSQL): the first aliases
      // listed, "zz-ostatni" not.
      const scripts = `proxy::${onPostgres() ? "mailadmin_sieve" : "mailadmin"}`;
      const dict = (key: string) =>
        execFileSync("doveadm", ["-c", dovecotConf(l), "dict", "get", "-u", `aliasy@${A}`, scripts, key], {
          encoding: "utf8",
        }).trim();
      const vacation = dict(`priv/sieve/data/${dict("priv/sieve/name/autoresponder")}`);
      expect(vacation.match(/ :addresses \[(.*?)\]/)![1]!.split(", ")).toHaveLength(VACATION_ADDRESSES_MAX);
      expect(vacation).toContain(`"a000@${A}"`);
      expect(vacation).not.toContain("zz-ostatni");
      const sender = "wiele@delta.test";
      await createAccount(db, await domain("delta.test"), "wiele", { password: PASSWORD.other });
      const to = `zz-ostatni@${A}`;
      const sent = await smtpTry(l.ports.submission, sender, [to], message(sender, to, "past the listed aliases"), {
        user: sender,
        pass: PASSWORD.other,
      });
      expect(sent.accepted).toEqual([to]);
      await waitFor("the reply to mail sent to the unlisted alias", () =>
        readMessages(l, sender).some(
          (m) => /^Auto-Submitted: auto-replied/im.test(m) && m.includes("Odpowiedź konta z wieloma aliasami."),
        ),
      );
      expect(hasSubject(`aliasy@${A}`, "past the listed aliases")).toBe(true);
    });

    it("a text with a line longer than SMTP allows (998 bytes) reaches the sender whole: Postfix does not break it inside a word or a UTF-8 character", async () => {
      // One paragraph of over 3,000 bytes in one line, as a panel user types it: Pigeonhole sends it as 8bit, unwrapped.
      const body = Array.from({ length: 110 }, (_, i) => `Zażółć gęślą jaźń ${i}.`).join(" ");
      expect(Buffer.byteLength(body)).toBeGreaterThan(3000);
      await createAccount(db, await domain(A), "dlugi", {
        password: PASSWORD.other,
        autoresponder_mode: 1,
        autoresponder_body: body,
      });
      const sender = "czyta@delta.test";
      await createAccount(db, await domain("delta.test"), "czyta", { password: PASSWORD.other });
      const to = `dlugi@${A}`;
      const sent = await smtpTry(l.ports.submission, sender, [to], message(sender, to, "long line"), {
        user: sender,
        pass: PASSWORD.other,
      });
      expect(sent.accepted).toEqual([to]);
      await waitFor("the reply with the long text", () =>
        readMessages(l, sender).some((m) => /^Auto-Submitted: auto-replied/im.test(m)),
      );
      const raw = readMessages(l, sender).find((m) => /^Auto-Submitted: auto-replied/im.test(m))!;
      for (const line of raw.split(/\r?\n/)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(998);
      const text = (await simpleParser(raw)).text ?? "";
      // Line breaks may be added between words; the words and characters are the account's.
      expect(text.trim().split(/\s+/)).toEqual(body.split(" "));
    });

    it("answers only a verified envelope sender (an SPF pass, a login): not a forged one (SPF softfail), nor one whose domain has no SPF record or that wrote the verification header itself, whose mail is still delivered", async () => {
      const alpha = await domain(A);
      // Its spam filter off: Rspamd scores the softfail VIOLATED_DIRECT_SPF (3.50), and spam filed into Spam is never
      // answered; this is about the autoresponder alone.
      await createAccount(db, alpha, "odpisuje", {
        password: PASSWORD.other,
        spam_enabled: 0,
        autoresponder_mode: 1,
        autoresponder_body: "Odpowiedź automatyczna.",
      });
      // A sender of this server that logs in: its domain publishes no SPF record, so only the login verifies it.
      await createAccount(db, await domain("delta.test"), "loguje", { password: PASSWORD.other });
      const to = `odpisuje@${A}`;
      // alpha.test's DKIM and DMARC records as the domain's DNS page suggests them (docs/onboarding.md).
      const key = (await currentDkimKey(db, alpha.id))!;
      const dkim = dkimRecord(A, key);
      writeDnsRecords(l.dnsRecords, {
        ...SENDER_SPF,
        [dkim.name]: { TXT: [dkim.value] },
        [`_dmarc.${A}`]: { TXT: [`v=DMARC1; p=quarantine; rua=mailto:postmaster@${A}`] },
        "sfalszowany.test": { TXT: ["v=spf1 ip4:192.0.2.1 ~all"] },
        "zaufany.test": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
      });
      /** The autoresponder's replies that left for `address` (the sandbox's outbound Maildir). */
      const repliesTo = (address: string) =>
        maildirNew(l.outbound)
          .map((f) => fs.readFileSync(f, "utf8"))
          .filter(
            (m) =>
              /^Auto-Submitted: auto-replied/im.test(m) &&
              m.includes(`X-Sandbox-Envelope-To: <${address}>`) &&
              m.includes("Odpowiedź automatyczna."),
          );
      try {
        // Forged: the domain's SPF does not allow the client (softfail: accepted), or there is no SPF record; and
        // a sender vouching for itself with the header Rspamd writes.
        await smtpSend("ofiara@sfalszowany.test", [to], message("ofiara@sfalszowany.test", to, "forged-softfail"));
        await smtpSend("ofiara@bezspf.test", [to], message("ofiara@bezspf.test", to, "forged-no-spf"));
        await smtpSend(
          "ofiara2@bezspf.test",
          [to],
          message("ofiara2@bezspf.test", to, "forged-header").replace(
            "Subject:",
            "X-Mailadmin-Sender-Verified: 1\nSubject:",
          ),
        );
        // Verified: an SPF pass for the client, and a login (submission, SMTP AUTH).
        await smtpSend("nadawca@zaufany.test", [to], message("nadawca@zaufany.test", to, "verified-spf"));
        // Verified, and carrying its own copies too: Postfix removed them, Rspamd wrote one.
        await smtpSend(
          "nadawca2@zaufany.test",
          [to],
          message("nadawca2@zaufany.test", to, "verified-own-header").replace(
            "Subject:",
            "X-Mailadmin-Sender-Verified: 1\nX-Mailadmin-Poster: nadawca2@zaufany.test\nSubject:",
          ),
        );
        const own = `loguje@delta.test`;
        const loggedIn = await smtpTry(l.ports.submission, own, [to], message(own, to, "verified-login"), {
          user: own,
          pass: PASSWORD.other,
        });
        expect(loggedIn.accepted).toEqual([to]);
        await waitFor("the reply to the SPF pass", () => repliesTo("nadawca@zaufany.test").length === 1);
        await waitFor("the reply to the login", () =>
          readMessages(l, own).some((m) => /^Auto-Submitted: auto-replied/im.test(m)),
        );
        await settle();
        for (const subject of [
          "forged-softfail",
          "forged-no-spf",
          "forged-header",
          "verified-spf",
          "verified-own-header",
          "verified-login",
        ])
          expect(hasSubject(to, subject), subject).toBe(true);
        expect(repliesTo("ofiara@sfalszowany.test")).toEqual([]);
        expect(repliesTo("ofiara@bezspf.test")).toEqual([]);
        expect(repliesTo("ofiara2@bezspf.test")).toEqual([]);
        // The header the sender wrote was removed; Rspamd wrote it for the verified ones only.
        const stored = (subject: string) => readMessages(l, to).find((m) => m.includes(`Subject: ${subject}`))!;
        expect(stored("forged-header")).not.toMatch(/^X-Mailadmin-Sender-Verified:/im);
        expect(stored("forged-softfail")).not.toMatch(/^X-Mailadmin-Sender-Verified:/im);
        expect(stored("verified-spf")).toMatch(/^X-Mailadmin-Sender-Verified: 1\r?$/im);
        expect(
          stored("verified-own-header")
            .match(/^X-Mailadmin-[\w-]+:.*$/gim)
            ?.map((h) => h.trim())
            .sort(),
        ).toEqual(["X-Mailadmin-Sender-Verified: 1", expect.stringMatching(/^X-Mailadmin-Spam-Centiscore: \d+$/)]);

        // The reply leaves with the null envelope sender (so SPF at the receiver checks only this host's HELO name)
        // and From: the account, in alpha.test: DMARC (p=quarantine) passes only on a DKIM signature of alpha.test.
        const [answer] = repliesTo("nadawca@zaufany.test");
        expect(answer).toMatch(/^X-Sandbox-Envelope-From: <>\r?$/m);
        expect(answer).toMatch(new RegExp(`^From: .*<?${to}>?\\r?$`, "m"));
        expect(answer).toMatch(/^DKIM-Signature:(.*\r?\n[ \t])*.*\bd=alpha\.test;/m);
        const { results } = await dkimVerify(Buffer.from(answer!), { resolver: sandboxTxtResolver(l) });
        expect(results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([[A, key.selector, "pass"]]);
        // A receiver's Rspamd (the sandbox's, asked as a foreign provider's filter would be) passes DMARC on it.
        const symbols = await receiverSymbols(l, answer!, {
          ip: "192.0.2.25",
          helo: "mx.sandbox.test",
          from: "<>",
          rcpt: "nadawca@zaufany.test",
        });
        expect(symbols).toEqual(expect.arrayContaining(["R_DKIM_ALLOW", "DMARC_POLICY_ALLOW"]));
      } finally {
        writeDnsRecords(l.dnsRecords, SENDER_SPF);
        await setAccount("odpisuje", { autoresponder_mode: 0 });
      }
    });

    it("while Rspamd does not answer (Postfix accepts the mail unfiltered), Postfix itself removes the X-Mailadmin headers a sender wrote: the message is delivered without them and not answered, and a list holds the post of a From that vouched for itself", async () => {
      const alpha = await domain(A);
      await createAccount(db, alpha, "bezfiltra", {
        password: PASSWORD.other,
        spam_enabled: 0,
        autoresponder_mode: 1,
        autoresponder_body: "Odpowiedź bez filtra.",
      });
      const to = `bezfiltra@${A}`;
      const forged = (from: string, rcpt: string, subject: string) =>
        message(from, rcpt, subject).replace(
          "Subject:",
          `X-Mailadmin-Sender-Verified: 1\nX-Mailadmin-Poster: ${from}\nX-Mailadmin-Spam-Centiscore: 0\nSubject:`,
        );
      const postfixLog = () => sandboxLog(l, "postfix.log");
      const logStart = postfixLog().length;
      await l.sandbox.stopComponent("rspamd");
      try {
        await smtpSend("ofiara3@bezspf.test", [to], forged("ofiara3@bezspf.test", to, "no-rspamd-forged"));
        // The moderator's From on a moderated list, vouched for by the sender's own X-Mailadmin-Poster.
        await smtpSend(
          "attacker@evil.example",
          [`ogloszenia@${A}`],
          forged(`anna@${A}`, `ogloszenia@${A}`, "no-rspamd-post"),
        );
        // Postfix went on without the milter (milter_default_action = accept), as it does when Rspamd is down.
        await waitFor("Postfix's warning that Rspamd's milter did not answer", () =>
          /warning: connect to Milter service inet:127\.0\.0\.1:\d+: Connection refused/.test(
            postfixLog().slice(logStart),
          ),
        );
        await waitFor("the delivery", () => hasSubject(to, "no-rspamd-forged"));
        await settle();
        const stored = readMessages(l, to).find((m) => m.includes("Subject: no-rspamd-forged"))!;
        expect(stored).not.toMatch(/^X-Mailadmin-/im);
        const replies = maildirNew(l.outbound)
          .map((f) => fs.readFileSync(f, "utf8"))
          .filter((m) => m.includes("X-Sandbox-Envelope-To: <ofiara3@bezspf.test>"));
        expect(replies).toEqual([]);
        // The list service saw no X-Mailadmin-Poster: an outsider's post, held for the moderator, not distributed.
        await waitFor("the moderation request", () =>
          readMessages(l, `anna@${A}`).some((m) => m.includes("Do moderacji: no-rspamd-post")),
        );
        await settle();
        expect(hasSubject(`jan@${A}`, "no-rspamd-post")).toBe(false);
      } finally {
        await l.sandbox.startComponent("rspamd");
        await setAccount("bezfiltra", { autoresponder_mode: 0 });
      }
    });

    it("mail this host hands back to Postfix keeps the X-Mailadmin headers: a Sieve forward (Dovecot's SMTP to the internal port here, sendmail on a production host) keeps those of its first delivery, and sendmail's path keeps them", async () => {
      const alpha = await domain(A);
      await createAccount(db, alpha, "odbiera", { password: PASSWORD.other });
      await createAccount(db, alpha, "przekazuje", {
        password: PASSWORD.other,
        spam_enabled: 0,
        forwards: [`odbiera@${A}`],
        keep_mail: 0,
      });
      // jan@A passes SPF from 127.0.0.1 (SENDER_SPF): Rspamd writes X-Mailadmin-Sender-Verified: 1 at the first delivery.
      await smtpSend(`jan@${A}`, [`przekazuje@${A}`], message(`jan@${A}`, `przekazuje@${A}`, "forwarded-verified"));
      const forwarded = await waitFor("the forwarded copy", () =>
        readMessages(l, `odbiera@${A}`).find((m) => m.includes("Subject: forwarded-verified")),
      );
      expect(forwarded).toMatch(/^X-Mailadmin-Sender-Verified: 1\r?$/m);
      expect(forwarded).toMatch(/^X-Mailadmin-Spam-Centiscore: \d+\r?$/m);
      // Postfix's sendmail (pickup), as Dovecot forwards on a production host.
      run(
        "sendmail",
        ["-C", l.postfix, "-i", "-f", `jan@${A}`, "--", `odbiera@${A}`],
        message(`jan@${A}`, `odbiera@${A}`, "via-sendmail").replace(
          "Subject:",
          "X-Mailadmin-Sender-Verified: 1\nSubject:",
        ),
      );
      const local = await waitFor("the sendmail copy", () =>
        readMessages(l, `odbiera@${A}`).find((m) => m.includes("Subject: via-sendmail")),
      );
      expect(local).toMatch(/^X-Mailadmin-Sender-Verified: 1\r?$/m);
    });
  });

  describe("autoresponder of a forward-only account", () => {
    it("answers while it forwards without keeping a copy (keep_mail 0), also when it became forward-only after the script was compiled; stores nothing but the spam its filter keeps, in or out of its dates", async () => {
      const alpha = await domain(A);
      for (const name of ["wyjazd", "zastepca", "pyta0", "pyta", "pyta2"])
        await createAccount(db, alpha, name, { password: PASSWORD.other });
      const reply = (to: string) =>
        readMessages(l, to).filter(
          (m) => /^Auto-Submitted: auto-replied/im.test(m) && m.includes("Poczta idzie do zast"),
        );
      const stored = () => ["", "Spam"].flatMap((folder) => maildirFiles(l, `wyjazd@${A}`, folder));

      // Keeping its mail first: the script is compiled (and kept under its id) at this delivery.
      await setAccount("wyjazd", { autoresponder_mode: 1, autoresponder_body: "Poczta idzie do zastępcy." });
      await smtpSend(`pyta0@${A}`, [`wyjazd@${A}`], message(`pyta0@${A}`, `wyjazd@${A}`, "wyjazd-0"));
      await settle();
      await waitFor("the first reply", () => reply(`pyta0@${A}`).length === 1);
      expect(stored()).toHaveLength(1);

      await setAccount("wyjazd", { forwards: [`zastepca@${A}`], keep_mail: 0 });
      await smtpSend(`pyta@${A}`, [`wyjazd@${A}`], message(`pyta@${A}`, `wyjazd@${A}`, "wyjazd-1"));
      const spam = message(`pyta@${A}`, `wyjazd@${A}`, "wyjazd-spam").replace(
        "Subject:",
        "X-Sandbox-Spam-Score: 12\nSubject:",
      );
      await smtpSend(`pyta@${A}`, [`wyjazd@${A}`], spam);
      await settle();
      expect(hasSubject(`zastepca@${A}`, "wyjazd-1")).toBe(true);
      // Its own spam filter (spam_rule "move", the default) keeps the spam in its Spam folder, unforwarded.
      expect(hasSubject(`zastepca@${A}`, "wyjazd-spam", "Spam")).toBe(false);
      expect(hasSubject(`wyjazd@${A}`, "wyjazd-spam", "Spam")).toBe(true);
      await waitFor("the reply", () => reply(`pyta@${A}`).length === 1);
      expect(stored()).toHaveLength(2);

      // Outside its dates: forwarded, not answered, and still nothing stored.
      await setAccount("wyjazd", { autoresponder_start_date: "2020-01-01", autoresponder_end_date: "2020-01-10" });
      await smtpSend(`pyta2@${A}`, [`wyjazd@${A}`], message(`pyta2@${A}`, `wyjazd@${A}`, "wyjazd-2"));
      await settle();
      expect(hasSubject(`zastepca@${A}`, "wyjazd-2")).toBe(true);
      expect(reply(`pyta2@${A}`)).toEqual([]);
      expect(stored()).toHaveLength(2);
    });
  });

  describe("autoresponder through a catchall", () => {
    const reply = (to: string, body: string) =>
      readMessages(l, to).filter((m) => /^Auto-Submitted: auto-replied/im.test(m) && m.includes(body));
    beforeAll(async () => {
      const alpha = await domain(A);
      for (const name of ["urlop", "pisze", "kolega"])
        await createAccount(db, alpha, name, { password: PASSWORD.other });
    });

    it("answers mail to its name in a domain whose catchall (type 3) leads here, also when set after the script was compiled", async () => {
      const gamma = await domain("gamma.test");
      await updateDomain(db, gamma, { catchall_type: 0 });
      try {
        await setAccount("urlop", { autoresponder_mode: 1, autoresponder_body: "Urlop do piątku." });
        // The script is compiled (and kept under its id) at this delivery, before gamma.test leads here.
        await smtpSend(`pisze@${A}`, [`urlop@${A}`], message(`pisze@${A}`, `urlop@${A}`, "urlop-direct"));
        await settle();
        await waitFor("the direct reply", () => reply(`pisze@${A}`, "Urlop do piątku.").length === 1);

        await updateDomain(db, await domain("gamma.test"), { catchall_type: 3, catchall_address: A });
        const to = "urlop@gamma.test";
        await smtpSend(`kolega@${A}`, [to], message(`kolega@${A}`, to, "urlop-catchall-3"));
        await settle();
        expect(hasSubject(`urlop@${A}`, "urlop-catchall-3")).toBe(true);
        await waitFor("the reply through gamma.test", () => reply(`kolega@${A}`, "Urlop do piątku.").length === 1);
      } finally {
        await updateDomain(db, await domain("gamma.test"), { catchall_type: 3, catchall_address: A });
      }
    });

    it("the catchall account of type 1 answers mail to its own address and what it collects for unknown ones; mode 0 answers nothing", async () => {
      await setAccount("catchall", { autoresponder_mode: 1, autoresponder_body: "Biuro zamknięte." });
      try {
        await smtpSend(`pisze@${A}`, [`nobody2@${A}`], message(`pisze@${A}`, `nobody2@${A}`, "catchall-collected"));
        await smtpSend(`kolega@${A}`, [`catchall@${A}`], message(`kolega@${A}`, `catchall@${A}`, "catchall-own"));
        await settle();
        expect(hasSubject(`catchall@${A}`, "catchall-collected")).toBe(true);
        await waitFor("the reply to its own address", () => reply(`kolega@${A}`, "Biuro zamknięte.").length === 1);
        await waitFor("the reply to what it collected", () => reply(`pisze@${A}`, "Biuro zamknięte.").length === 1);
      } finally {
        await setAccount("catchall", { autoresponder_mode: 0 });
      }
      // autoresponder_mode 0: the same mail to its own address is not answered.
      await smtpSend(`pisze@${A}`, [`catchall@${A}`], message(`pisze@${A}`, `catchall@${A}`, "catchall-off"));
      await settle();
      expect(hasSubject(`catchall@${A}`, "catchall-off")).toBe(true);
      expect(reply(`pisze@${A}`, "Biuro zamknięte.")).toHaveLength(1);
    });
  });

  describe("DKIM for mail given to sendmail (a production host's vacation replies and Sieve redirects)", () => {
    it("signs what was composed here with its hosted From domain's key, and neither what it relays nor a foreign domain", async () => {
      const key = (await currentDkimKey(db, (await domain(A)).id))!;
      const dkim = dkimRecord(A, key);
      writeDnsRecords(l.dnsRecords, { ...SENDER_SPF, [dkim.name]: { TXT: [dkim.value] } });
      /** Through Postfix's pickup and non_smtpd_milters, as Dovecot sends with sendmail_path on a production host. */
      const sendmail = (raw: string, to: string) => run("sendmail", ["-C", l.postfix, "-i", "-f", "<>", "--", to], raw);
      const left = (subject: string) =>
        waitFor(`${subject} in the outbound Maildir`, () =>
          maildirNew(l.outbound)
            .map((f) => fs.readFileSync(f, "utf8"))
            .find((m) => new RegExp(`^Subject: ${subject}\\r?$`, "m").test(m)),
        );
      try {
        sendmail(message(`ewa@${A}`, "odbiorca@outside.test", "pickup-composed"), "odbiorca@outside.test");
        sendmail(message("ktos@outside.test", "odbiorca@outside.test", "pickup-foreign"), "odbiorca@outside.test");
        // A message delivered here (the Received headers of its arrival), sent on as a Sieve redirect sends it; its
        // From in alpha.test but unsigned, as forged mail from outside is (the MX signs authenticated senders only).
        await smtpSend(`jan@${A}`, [`ewa@${A}`], message(`jan@${A}`, `ewa@${A}`, "pickup-relayed"));
        await settle();
        const stored = readMessages(l, `ewa@${A}`).find((m) => m.includes("Subject: pickup-relayed"))!;
        expect(stored).toMatch(/^Received: from /m);
        expect(stored).not.toMatch(/^DKIM-Signature:/m);
        sendmail(stored, "odbiorca@outside.test");

        const composed = await left("pickup-composed");
        const { results } = await dkimVerify(Buffer.from(composed), { resolver: sandboxTxtResolver(l) });
        expect(results.map((r) => [r.signingDomain, r.selector, r.status.result])).toEqual([[A, key.selector, "pass"]]);
        // Signed only: not scored (the MX's milter headers), so nothing of Rspamd's but the signature.
        expect(composed).not.toMatch(/^(X-Spamd-Result|X-Spam-Score|X-Rspamd-[\w-]+):/im);
        expect(await left("pickup-foreign")).not.toMatch(/^DKIM-Signature:/m);
        // Relayed: it keeps the signature it came with (none here); ours would vouch for whatever came in.
        expect(await left("pickup-relayed")).not.toMatch(/^DKIM-Signature:/m);
      } finally {
        writeDnsRecords(l.dnsRecords, SENDER_SPF);
      }
    });
  });

  describe("housekeeping", () => {
    const warnings = () => readMessages(l, `jan@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));
    /** Housekeeping opens only mailboxes whose usage counts messages: quota_clone's write follows the APPEND. */
    const counted = (name: string) =>
      waitFor(
        `${name}'s messages counted`,
        async () => (await getAccountOrThrow(db, await domain(A), name)).usageMessages > 0,
      );

    it("expunges an old inbox message, keeps new ones, and warns about usage once per 24 h", async () => {
      const old = new Date(Date.now() - 60 * 86_400_000);
      await imapAppend(`jan@${A}`, PASSWORD.janNew, "INBOX", old, message("old@outside.test", `jan@${A}`, "old-one"));
      expect(hasSubject(`jan@${A}`, "old-one")).toBe(true);
      await counted("jan");

      const output = await cli("mailserver", "housekeeping", "--dovecot-config", dovecotConf(l));
      expect(output).toMatch(/expunge INBOX: before 30d, 1 account/);
      expect(hasSubject(`jan@${A}`, "old-one")).toBe(false);
      expect(hasSubject(`jan@${A}`, "to-account")).toBe(true);
      // The warning came with the delivery that reached the level (Dovecot's quota_warning -> the sandbox's mail
      // event service); housekeeping does not send another within 24 h.
      expect(warnings()).toHaveLength(1);
      expect(output).not.toContain(`warned jan@${A}`);

      await cli("mailserver", "housekeeping", "--dovecot-config", dovecotConf(l));
      expect(warnings()).toHaveLength(1);

      await runHousekeeping(db, {
        doveadm: ["doveadm", "-c", dovecotConf(l)],
        now: new Date(Date.now() + 25 * 3_600_000),
      });
      expect(warnings()).toHaveLength(2);
    });

    it("expunges Trash and Spam after each account's days, counted from when a message was put there; 0 keeps", async () => {
      await setAccount("ewa", { trash_delete_after: 7, spam_delete_after: 14 });
      await setAccount("anna", { trash_delete_after: 14, spam_delete_after: 7 });
      await setAccount("catchall", { trash_delete_after: 0, spam_delete_after: 0 });
      const names = ["ewa", "anna", "catchall"];
      const present = () =>
        names.flatMap((name) =>
          ["Trash", "Spam"]
            .filter((folder) => hasSubject(`${name}@${A}`, `${name}-${folder}`, folder))
            .map((folder) => `${name} ${folder}`),
        );
      // Received a year ago, put into Trash and Spam now: Dovecot's save date is the APPEND's time (cached at the
      // save), so the days pass on the run's clock (runHousekeeping's now), not the message's.
      const yearAgo = new Date(Date.now() - 365 * 86_400_000);
      for (const name of names) {
        for (const folder of ["Trash", "Spam"]) {
          const msg = message("old@outside.test", `${name}@${A}`, `${name}-${folder}`);
          await imapAppend(`${name}@${A}`, PASSWORD.other, folder, yearAgo, msg);
        }
      }
      const all = ["ewa Trash", "ewa Spam", "anna Trash", "anna Spam", "catchall Trash", "catchall Spam"];
      expect(present()).toEqual(all);
      for (const name of names) await counted(name);

      const output = await cli("mailserver", "housekeeping", "--dovecot-config", dovecotConf(l));
      for (const line of [
        "Trash: savedbefore 7d, 1 account(s)",
        "Trash: savedbefore 14d, 1 account(s)",
        "Spam: savedbefore 7d, 1 account(s)",
        "Spam: savedbefore 14d, 1 account(s)",
      ])
        expect(output.split("\n")).toContain(`expunge ${line}`);
      expect(present()).toEqual(all);

      const later = (days: number) =>
        runHousekeeping(db, {
          doveadm: ["doveadm", "-c", dovecotConf(l)],
          now: new Date(Date.now() + days * 86_400_000),
        });
      // 6 days on: younger than every account's days. 10: past 7, not 14. 15: past both; 0 still keeps.
      expect((await later(6)).failed).toEqual([]);
      expect(present()).toEqual(all);
      expect((await later(10)).failed).toEqual([]);
      expect(present()).toEqual(["ewa Spam", "anna Trash", "catchall Trash", "catchall Spam"]);
      expect((await later(15)).failed).toEqual([]);
      expect(present()).toEqual(["catchall Trash", "catchall Spam"]);
    });

    it("keeps a message's save date when it is marked read, though that renames its maildir file", async () => {
      // jan's Trash is empty so far: no housekeeping search has read (and so cached) a save date in it.
      await setAccount("jan", { trash_delete_after: 7 });
      const yearAgo = new Date(Date.now() - 365 * 86_400_000);
      await imapAppend(`jan@${A}`, PASSWORD.janNew, "Trash", yearAgo, message("old@outside.test", `jan@${A}`, "read"));
      const ctime = () => Math.floor(fs.statSync(maildirFiles(l, `jan@${A}`, "Trash")[0]!).ctimeMs / 1000);
      const saved = ctime();
      await waitFor("the clock's next second", () => Date.now() >= (saved + 1) * 1000);
      doveadm("flags", "add", "-u", `jan@${A}`, "\\Seen", "mailbox", "Trash", "all");
      expect(maildirFiles(l, `jan@${A}`, "Trash")[0]).toMatch(/:2,S$/);
      const read = ctime();
      expect(read).toBeGreaterThan(saved);
      // 7 days after the read to the second: the cutoff falls between the save and the rename.
      const run = await runHousekeeping(db, {
        doveadm: ["doveadm", "-c", dovecotConf(l)],
        now: new Date(read * 1000 + 7 * 86_400_000),
      });
      expect(run.failed).toEqual([]);
      expect(hasSubject(`jan@${A}`, "read", "Trash")).toBe(false);
    });
  });

  mailserverCheckCases();
});
