// The mail server obeys the panel: real Postfix and Dovecot (Debian's packages), configured only by the files
// `mailserver config` writes, against a database changed only through the services and the CLI. On SQLite, and
// under `npm run test:mail:pg` on PostgreSQL (proxy:pgsql: maps, Dovecot's pgsql driver as the mail role).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
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
import { getDomainOrThrow, updateDomain } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import { runHousekeeping } from "./housekeeping";
import {
  closeTestDatabase,
  dovecotConf,
  imapAppend as imapAppendOn,
  MAIL_OWNER,
  mailTestsOnPostgres,
  maildirFiles,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  postmapQuery,
  readMessages,
  run,
  settleMail,
  smtpSend as smtpSendOn,
  startMailSystem,
  waitFor,
  type MailTestLayout,
} from "./testing/mail-daemons";

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

const A = "alpha.test";
const PASSWORD = { postmaster: "Admin-pass1", jan: "Jan-pass1", janNew: "Jan-new-2", other: "Other-pw1" };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let l: MailTestLayout;
let db: Db;
let postmaster: Principal;

const smtpSend = (from: string, to: string[], msg: string) => smtpSendOn(l.ports.smtp, from, to, msg);
const imapAppend = (user: string, password: string, mailbox: string, date: Date, msg: string) =>
  imapAppendOn(l.ports.imap, user, password, mailbox, date, msg);
const cli = (...argv: string[]) => runCommand(db, argv);
const domain = (name: string) => getDomainOrThrow(db, name);
const setAccount = async (name: string, body: Record<string, unknown>) =>
  updateAccounts(db, postmaster, await domain(A), [name], body);
const doveadm = (...args: string[]) => run("doveadm", ["-c", dovecotConf(l), ...args]);

function authOk(user: string, password: string): boolean {
  try {
    // no-penalty: repeated failures from one client would otherwise be slowed down by seconds each (anvil).
    return doveadm("auth", "test", "-x", "no-penalty", user, password).includes("auth succeeded");
  } catch {
    return false;
  }
}

function message(from: string, to: string, subject: string, body = "Treść testowa.\n") {
  // A well-formed message: Rspamd scores it about 0 (the spam filter itself is tested in antispam.test.ts).
  return `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${subject.replace(/\W/g, "")}.${Date.now()}@client.test>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n${body}`;
}

const hasSubject = (email: string, subject: string, folder = "") =>
  readMessages(l, email, folder).some((m) => m.includes(`Subject: ${subject}`));

/** Waits until the mail system has moved past the deliveries so far, and any Sieve reply they caused. */
const settle = () => settleMail(l, `znacznik@${A}`);

async function seed() {
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

describe.skipIf(missing.length > 0)("mail server on the panel's database", () => {
  beforeAll(async () => {
    const root = newMailTestRoot("mailadmin-mail-");
    process.env.DATABASE_PATH = path.join(root, "db", "mail.db");
    db = await openTestDatabase(process.env.DATABASE_PATH);
    await seed();
    // The whole mail system, as `mailserver sandbox` runs it: configured by `mailserver config`'s generator.
    l = await startMailSystem(root);
  }, 240_000);

  afterAll(async () => {
    if (!l) return;
    await l.sandbox.stop();
    await closeTestDatabase(db);
    if (!process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(path.dirname(l.root), { recursive: true, force: true });
  }, 60_000);

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
      expect(alias(`anna@${A}`)).toBe(`anna@${A},ewa@${A}`);
      expect(alias(`piotr@${A}`)).toBe(`ewa@${A}`);
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
      expect(authOk(`jan@${A}`, PASSWORD.jan)).toBe(true);
      await setAccount("jan", { password: PASSWORD.janNew, password_retype: PASSWORD.janNew });
      expect(authOk(`jan@${A}`, PASSWORD.janNew)).toBe(true);
      expect(authOk(`jan@${A}`, PASSWORD.jan)).toBe(false);
    });

    it("refuses blocked and expired accounts with their right password", () => {
      expect(authOk(`zablokowany@${A}`, PASSWORD.other)).toBe(false);
      expect(authOk(`wygasly@${A}`, PASSWORD.other)).toBe(false);
      expect(authOk(`ewa@${A}`, PASSWORD.other)).toBe(true);
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

      await setAccount("ewa", { autoresponder_start_date: "2020-01-01", autoresponder_end_date: "2020-01-10" });
      await smtpSend(`catchall@${A}`, [`ewa@${A}`], message(`catchall@${A}`, `ewa@${A}`, "vacation-3"));
      await settle();
      expect(hasSubject(`ewa@${A}`, "vacation-3")).toBe(true);
      expect(reply(`catchall@${A}`)).toHaveLength(0);
    });
  });

  describe("housekeeping", () => {
    const warnings = () => readMessages(l, `jan@${A}`).filter((m) => m.includes("X-Mailadmin: usage-warning"));

    it("expunges an old inbox message, keeps new ones, and warns about usage once per 24 h", async () => {
      const old = new Date(Date.now() - 60 * 86_400_000);
      await imapAppend(`jan@${A}`, PASSWORD.janNew, "INBOX", old, message("old@outside.test", `jan@${A}`, "old-one"));
      expect(hasSubject(`jan@${A}`, "old-one")).toBe(true);

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
  });

  describe("mailserver check", () => {
    const checkArgs = () => [
      "mailserver",
      "check",
      "--account",
      `ewa@${A}`,
      "--password",
      PASSWORD.other,
      "--config-dir",
      l.conf,
      "--db-group",
      MAIL_OWNER.group,
      "--postfix-config",
      l.postfix,
      "--dovecot-config",
      dovecotConf(l),
      "--rspamd-controller",
      `127.0.0.1:${l.ports.rspamd_controller}`,
      "--policy-service",
      `127.0.0.1:${l.ports.policy}`,
      "--quota-status",
      `127.0.0.1:${l.ports.quota_status}`,
      "--events-url",
      `http://127.0.0.1:${l.ports.events}`,
      "--dkim-dir",
      path.join(l.root, "dkim"),
      "--lmtp-socket",
      path.join(l.dovecot, "run", "lmtp"),
      "--auth-socket",
      path.join(l.dovecot, "run", "auth-client"),
    ];
    /**
     * The real CLI in its own process: its stdout, stderr and exit status. Asynchronous: the sandbox's policy service
     * runs in this process and must answer the CLI's check meanwhile.
     */
    const runCli = (args: string[]) =>
      new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
        const child = spawn(
          process.execPath,
          ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args],
          {
            env: { ...process.env, DATABASE_PATH: l.db },
            timeout: 120_000,
          },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
        child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
        child.on("close", (status) => resolve({ stdout, stderr, status }));
      });
    const lines = (stdout: string) => stdout.split("\n").filter((line) => /^[✓✗] /.test(line));

    it("passes on the test installation, one ✓ line per check", async () => {
      const r = await runCli(checkArgs());
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const found = lines(r.stdout);
      expect(found.map((line) => line.slice(2, line.indexOf(":")))).toEqual([
        ...(mailTestsOnPostgres()
          ? [
              "PostgreSQL connection (DATABASE_URL)",
              "PostgreSQL connections fit max_connections",
              "mail role reads the views on every read host",
              "mail role is read-only",
            ]
          : ["database readable by the mail group"]),
        "postmap finds the domain",
        "postmap finds the mailbox",
        "postmap finds an alias",
        "doveadm user",
        "doveadm auth test",
        "LMTP socket",
        "auth socket",
        "quota_clone writes usage back",
        "Rspamd answers",
        "policy service answers",
        "quota-status answers at RCPT",
        "mail events service answers",
        "DKIM key for the account's domain",
      ]);
      expect(found.every((line) => line.startsWith("✓"))).toBe(true);
      expect(r.stdout).toContain(`postmap -q ewa@${A} virtual-mailbox-maps -> ${A}/ewa/`);
    });

    it.skipIf(!mailTestsOnPostgres())(
      "fails naming the mail role when its password is wrong (PostgreSQL)",
      async () => {
        // A copy of the configuration whose maps hold a wrong password (changing the role's own password would make
        // the running Postfix skip the host for its retry_interval, 60 s, and fail the next tests).
        const wrong = path.join(path.dirname(l.root), "conf-wrong-password");
        fs.cpSync(l.conf, wrong, { recursive: true });
        for (const f of fs.readdirSync(path.join(wrong, "postfix")).filter((x) => x.endsWith(".cf"))) {
          const file = path.join(wrong, "postfix", f);
          fs.writeFileSync(
            file,
            fs.readFileSync(file, "utf8").replace(/^password = .*$/m, "password = not-the-password"),
          );
        }
        const args = checkArgs();
        args[args.indexOf("--config-dir") + 1] = wrong;
        const r = await runCli(args);
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed[0]).toMatch(
          /^✗ mail role reads the views on every read host: mail_reader@127\.0\.0\.1:\d+: password authentication failed for user "mail_reader"/,
        );
      },
    );

    it.skipIf(mailTestsOnPostgres())("fails naming the database file when the mail group cannot read it", async () => {
      fs.chmodSync(l.db, 0o600);
      try {
        const r = await runCli(checkArgs());
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/^error: \d of 14 checks failed\n$/);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed[0]).toBe(
          `✗ database readable by the mail group: ${l.db} (mode 0600, gid 0) is not readable and writable by group ${MAIL_OWNER.group}`,
        );
      } finally {
        fs.chmodSync(l.db, 0o666);
      }
    });

    it("fails naming Dovecot's own error when Dovecot is stopped; housekeeping shows doveadm's stderr", async () => {
      await l.sandbox.stopComponent("dovecot");
      expect(fs.existsSync(path.join(l.dovecot, "run", "master.pid"))).toBe(false);
      try {
        const r = await runCli(checkArgs());
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed.map((line) => line.slice(2, line.indexOf(":")))).toEqual([
          "doveadm user",
          "doveadm auth test",
          "LMTP socket",
          "auth socket",
          "quota_clone writes usage back",
          "quota-status answers at RCPT",
        ]);
        // doveadm's own words: it could not reach the auth service's socket.
        expect(failed[0]).toMatch(/doveadm .*user .*failed \(exit \d+\): .*auth-userdb/);
        expect(failed[2]).toMatch(/lmtp: (ECONNREFUSED|ENOENT)|lmtp does not exist/);

        // The same failure in housekeeping: doveadm's stderr, and the user list it names is still there to read.
        const err = await cli("mailserver", "housekeeping", "--dovecot-config", dovecotConf(l)).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(err?.message).toMatch(
          /^doveadm -c \S+ expunge -F (\S+) .*failed \((exit \d+|killed by SIG\w+)\): .*auth-userdb/,
        );
        // One line per failed doveadm run (each mailbox's expunge was tried; a failure does not stop the others).
        for (const line of err!.message.split("\n"))
          expect(line).toMatch(/^(doveadm -c \S+ expunge -F \S+ .*failed|done: )/);
        const listFile = /expunge -F (\S+)/.exec(err!.message)![1]!;
        expect(fs.readFileSync(listFile, "utf8")).toContain(`jan@${A}`);
        fs.rmSync(path.dirname(listFile), { recursive: true, force: true });
      } finally {
        await l.sandbox.startComponent("dovecot");
        await waitFor("Dovecot to answer", () => authOk(`ewa@${A}`, PASSWORD.other));
      }
    });
  });
});
