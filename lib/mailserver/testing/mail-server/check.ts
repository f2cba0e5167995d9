// Mail-server cases: `mailserver check` in its own process against the running sandbox.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { removedMailboxes } from "@/db/schema";
import { dovecotConf, MAIL_OWNER, mailTestsOnPostgres, waitFor } from "../mail-daemons";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { sandboxCheckOptions } from "../../sandbox/sandbox";
import { A, PASSWORD, l, authOk, cli, db, domain, setAccount } from "./harness";

export function mailserverCheckCases() {
  describe("mailserver check", () => {
    // What the sandbox's JSON line gives an operator (its `check` field): Dovecot's LMTP and auth on their TCP
    // listeners, host:port, as Postfix reaches them (before, the check took only a socket file).
    const checkArgs = () => [
      "mailserver",
      "check",
      "--account",
      `ewa@${A}`,
      "--password",
      PASSWORD.other,
      ...sandboxCheckOptions(l.sandbox.ctx),
    ];
    /**
     * The real CLI in its own process: its stdout, stderr and exit status. Asynchronous: the sandbox's policy service
     * runs in this process and must answer the CLI's check meanwhile.
     */
    const runCli = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
        const child = spawn(
          process.execPath,
          ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args],
          {
            env: { ...process.env, DATABASE_PATH: l.db, MAIL_HOST: "mx.check.test", ...env },
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
        "deleted accounts' mailboxes removed",
        "SMS numbers have a gateway",
        "main.cf has the snippet's settings",
        "X-Mailadmin headers removed on arrival",
        "lmtp writes X-Original-To",
        "no address extensions (recipient_delimiter)",
        "Rspamd's signing worker answers",
        "SRS domain receives mail here",
        "MAIL_HOST and myhostname are domain names",
        "DKIM key for the account's domain",
        "submission port takes a login over TLS",
        "submission port refuses a sender the login does not own",
      ]);
      expect(found.every((line) => line.startsWith("✓"))).toBe(true);
      expect(r.stdout).toContain(`(STARTTLS): logged in as ewa@${A}`);
      expect(r.stdout).toContain(
        `(STARTTLS): MAIL FROM <mailserver-check.not-owned@${A}> refused: 553 5.7.1 <mailserver-check.not-owned@${A}>: Sender address rejected: not owned by user ewa@${A}`,
      );
      expect(r.stdout).toContain(`postmap -q ewa@${A} virtual-mailbox-maps -> ${A}/ewa/`);
      expect(found).toContain(`✓ LMTP socket: 127.0.0.1:${l.ports.lmtp} accepts connections`);
      expect(found).toContain(`✓ auth socket: 127.0.0.1:${l.ports.auth} accepts connections`);
      // The JSON line's command is these options, after the environment and the CLI's name.
      expect(l.sandbox.info.check).toMatch(/^MAIL_HOST=mx\.sandbox\.test /);
      expect(l.sandbox.info.check).toContain(
        ` npm run --silent cli -- mailserver check ${sandboxCheckOptions(l.sandbox.ctx).join(" ")}`,
      );
    });

    it("passes with Dovecot's Unix socket files too (a production host's form)", async () => {
      const args = checkArgs();
      args[args.indexOf("--lmtp-socket") + 1] = path.join(l.dovecot, "run", "lmtp");
      args[args.indexOf("--auth-socket") + 1] = path.join(l.dovecot, "run", "auth-client");
      const r = await runCli(args);
      expect(r.status).toBe(0);
      expect(lines(r.stdout).filter((line) => / socket: /.test(line))).toEqual([
        `✓ LMTP socket: ${path.join(l.dovecot, "run", "lmtp")} accepts connections`,
        `✓ auth socket: ${path.join(l.dovecot, "run", "auth-client")} accepts connections`,
      ]);
    });

    it("fails naming an account whose SMS number has no gateway in the SMS configuration, and passes once it has one", async () => {
      const dir = fs.mkdtempSync(path.join(l.root, "sms-config-"));
      const none = path.join(dir, "none.json");
      const http = path.join(dir, "http.json");
      fs.writeFileSync(none, "{}\n");
      fs.writeFileSync(http, JSON.stringify({ http: { url: "http://127.0.0.1:9/send?to={msisdn}" } }));
      await setAccount("ewa", { sms_phone_number_1: "600100200", sms_send_to: 0 });
      try {
        const without = await runCli([...checkArgs(), "--sms-config", none]);
        expect(without.status).toBe(1);
        const failed = lines(without.stdout).filter((line) => line.startsWith("✗"));
        expect(failed).toHaveLength(1);
        expect(failed[0]).toMatch(
          new RegExp(
            `^✗ SMS numbers have a gateway: \\d+ of \\d+ number\\(s\\) have none, so their notifications fail: .*ewa@${A.replace(/\./g, "\\.")}: no HTTP SMS gateway configured by the provider`,
          ),
        );
        const withHttp = await runCli([...checkArgs(), "--sms-config", http]);
        expect(lines(withHttp.stdout).find((line) => line.includes("SMS numbers have a gateway"))).toMatch(
          /^✓ SMS numbers have a gateway: (\d+) of \1 number\(s\) of \d+ account\(s\) have one \([1-9]\d* HTTP, \d+ e-mail\)$/,
        );
      } finally {
        await setAccount("ewa", { sms_phone_number_1: "" });
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it("fails naming a deleted account's mailbox no events service has removed for over a minute", async () => {
      // An address whose folder the sandbox's events service cannot name (no folder of its own under mail_home)
      // stays recorded, as every one does on a host whose events service is stopped.
      const [row] = await db
        .insert(removedMailboxes)
        .values({ email: `..@${A}`, host: null, removedAt: Date.now() - 120_000 })
        .returning({ id: removedMailboxes.id });
      try {
        const r = await runCli(checkArgs());
        expect(r.status).toBe(1);
        expect(lines(r.stdout).filter((line) => line.startsWith("✗"))).toEqual([
          `✗ deleted accounts' mailboxes removed: 1 waits longer than a minute, none removed in 8 s, the oldest ..@${A} ` +
            "(placed on no host): " +
            "is `mailserver events` running? Until it removes them, an account created again under those addresses " +
            `cannot log in (docs/mail-server.md, "Deleted accounts' mailboxes")`,
        ]);
      } finally {
        await db.delete(removedMailboxes).where(eq(removedMailboxes.id, row!.id));
      }
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

    it("fails when Rspamd's user cannot reach the DKIM keys, the SRS domain is not received here, or MAIL_HOST is a short name", async () => {
      const keys = path.join(l.root, "dkim", "keys");
      fs.chmodSync(keys, 0o700);
      try {
        const args = checkArgs();
        args[args.indexOf("--srs-domain") + 1] = "srs.elsewhere.test";
        const r = await runCli(args, { MAIL_HOST: "mx" });
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed).toEqual([
          expect.stringMatching(
            /^✗ SRS domain receives mail here: SRS domain srs\.elsewhere\.test is neither in mydestination \(.*\) nor hosted/,
          ),
          expect.stringMatching(
            /^✗ MAIL_HOST and myhostname are domain names: MAIL_HOST is 'mx', not a domain name: set MAIL_HOST=/,
          ),
          expect.stringMatching(
            new RegExp(
              `^✗ DKIM key for the account's domain: _rspamd cannot read the DKIM keys: cannot enter ${keys} \\(mode 0700`,
            ),
          ),
        ]);
      } finally {
        fs.chmodSync(keys, 0o750);
      }
    });

    it("fails when main.cf lacks lines of the snippet, Postfix keeps the X-Mailadmin headers a message arrives with, sendmail's path drops them, the lmtp service writes no X-Original-To, address extensions are on, or Rspamd has no signing worker", async () => {
      // A copy of Postfix's configuration without main.cf's header_checks and pickup's exemption, and with Debian's
      // recipient_delimiter (the running Postfix is left as it is: the check only reads the settings).
      const copy = path.join(path.dirname(l.root), "postfix-without-header-checks");
      fs.cpSync(l.postfix, copy, {
        recursive: true,
        filter: (src) => !src.startsWith(path.join(l.postfix, "queue")),
      });
      const drop = (file: string, line: RegExp) =>
        fs.writeFileSync(path.join(copy, file), fs.readFileSync(path.join(copy, file), "utf8").replace(line, ""));
      drop("main.cf", /^header_checks = .*$/m);
      // A line a later release added to the snippet, not applied yet.
      drop("main.cf", /^smtpd_forbid_bare_newline = .*$/m);
      // Debian's recipient_delimiter kept, as on a host where the snippet's line was not applied.
      fs.writeFileSync(
        path.join(copy, "main.cf"),
        fs
          .readFileSync(path.join(copy, "main.cf"), "utf8")
          .replace(/^recipient_delimiter =$/m, "recipient_delimiter = +"),
      );
      // Rspamd without the signing worker (rspamd.conf.local not linked): nothing listens where Postfix sends.
      fs.appendFileSync(path.join(copy, "main.cf"), "\nnon_smtpd_milters = inet:127.0.0.1:1\n");
      drop("master.cf", /(?<=^pickup unix[^\n]*\n)\s+-o receive_override_options=no_header_body_checks\n/m);
      drop("master.cf", /(?<=^lmtp unix[^\n]*lmtp) flags=O(?=\n)/m);
      try {
        const args = checkArgs();
        args[args.indexOf("--postfix-config") + 1] = copy;
        const r = await runCli(args);
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed).toEqual([
          `✗ main.cf has the snippet's settings: main.cf differs from ${path.join(l.conf, "postfix", "main.cf.snippet")} ` +
            "in smtpd_forbid_bare_newline, recipient_delimiter, header_checks, non_smtpd_milters: rerun the postconf " +
            "line of docs/deploy.md, step 5, then postfix reload",
          expect.stringMatching(
            /^✗ X-Mailadmin headers removed on arrival: header_checks is '', not \S+inbound-header-checks: .*; pickup does not skip them .*postconf -P pickup\/unix\/receive_override_options=no_header_body_checks$/,
          ),
          "✗ lmtp writes X-Original-To: the lmtp service runs 'lmtp', without flags=O: mail a catchall of type 1 or 2 " +
            "brings gets no autoresponder reply; postconf -F 'lmtp/unix/command=lmtp flags=O' (docs/deploy.md, step 5)",
          "✗ no address extensions (recipient_delimiter): recipient_delimiter is '+': mail to jan+tag@ would reach jan " +
            "past jan's black list; rerun the postconf line of docs/deploy.md, step 5 (the snippet clears it)",
          expect.stringMatching(
            /^✗ Rspamd's signing worker answers: 127\.0\.0\.1:1 \(non_smtpd_milters\): ECONNREFUSED: link \S+rspamd\.conf\.local to \/etc\/rspamd\/rspamd\.conf\.local and restart Rspamd$/,
          ),
        ]);
      } finally {
        fs.rmSync(copy, { recursive: true, force: true });
      }
    });

    it("fails when the submission port offers no TLS, or nothing answers there", async () => {
      for (const [port, reason] of [
        [l.ports.smtp, /\(STARTTLS\): .*STARTTLS/],
        [1, /\(STARTTLS\): .*ECONNREFUSED/],
      ] as const) {
        const args = checkArgs();
        args[args.indexOf("--submission") + 1] = `127.0.0.1:${port}`;
        const r = await runCli(args);
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed).toEqual([
          expect.stringMatching(/^✗ submission port takes a login over TLS: 127\.0\.0\.1:\d+ /),
          expect.stringMatching(/^✗ submission port refuses a sender the login does not own: 127\.0\.0\.1:\d+ /),
        ]);
        expect(failed[0]).toMatch(reason);
        expect(failed[1]).toMatch(reason);
      }
    });

    it.skipIf(mailTestsOnPostgres())("fails naming the database file when the mail group cannot read it", async () => {
      fs.chmodSync(l.db, 0o600);
      try {
        const r = await runCli(checkArgs());
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/^error: \d of 25 checks failed\n$/);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        expect(failed[0]).toBe(
          `✗ database readable by the mail group: ${l.db} (mode 0600, gid 0) is not readable and writable by group ${MAIL_OWNER.group}`,
        );
      } finally {
        fs.chmodSync(l.db, 0o666);
      }
    });

    it("fails naming Dovecot's own error when Dovecot is stopped; housekeeping says in one line that Dovecot is not running and leaves no user list", async () => {
      await l.sandbox.stopComponent("dovecot");
      expect(fs.existsSync(path.join(l.dovecot, "run", "master.pid"))).toBe(false);
      try {
        const r = await runCli(checkArgs());
        expect(r.status).toBe(1);
        const failed = lines(r.stdout).filter((line) => line.startsWith("✗"));
        // The submission login may still pass just after the stop (seen once on PostgreSQL): Postfix reaches Dovecot's
        // auth service over its own connection, not through the master's sockets the doveadm lines need.
        const names = failed.map((line) => line.slice(2, line.indexOf(":")));
        const submission = [
          "submission port takes a login over TLS",
          "submission port refuses a sender the login does not own",
        ];
        expect(names.filter((name) => !submission.includes(name))).toEqual([
          "doveadm user",
          "doveadm auth test",
          "LMTP socket",
          "auth socket",
          "quota_clone writes usage back",
          "quota-status answers at RCPT",
        ]);
        // doveadm's own words: it could not reach the auth service's socket.
        expect(failed[0]).toMatch(/doveadm .*user .*failed \(exit \d+\): .*auth-userdb/);
        // Its command line is quoted without the account's password.
        expect(failed[1]).toMatch(/doveadm .*auth test -x no-penalty \S+ <password> failed/);
        expect(r.stdout).not.toContain(PASSWORD.other);
        expect(failed[2]).toMatch(
          /^✗ LMTP socket: 127\.0\.0\.1:\d+: ECONNREFUSED \(nothing listens: is Dovecot running\?\)$/,
        );

        // The same cause in housekeeping: one line saying Dovecot is not running (doveadm's panic and the rest of its
        // stderr are not repeated for every mailbox), exit 1, and the temp folder of user lists removed. The real
        // CLI process, in a TMPDIR of its own, so that the folder it makes (and removes) is the only such one there.
        // A mailbox housekeeping opens (one that holds messages): the earlier tests' mail, or, run alone, recorded
        // as quota_clone would (through the service; Dovecot is stopped and writes nothing meanwhile).
        const jan = await getAccountOrThrow(db, await domain(A), "jan");
        const messages = String(Math.max(jan.usageMessages, 1));
        await cli("usage", "report", `jan@${A}`, "--bytes", String(jan.usageBytes), "--messages", messages);
        const tmp = fs.mkdtempSync(path.join(l.root, "housekeeping-tmp-"));
        const hk = await runCli(["mailserver", "housekeeping", "--dovecot-config", dovecotConf(l)], { TMPDIR: tmp });
        expect(hk.status).toBe(1);
        expect(hk.stdout).toBe("");
        expect(hk.stderr).toBe(
          `error: Dovecot is not running (doveadm could not reach its auth service, ${path.join(l.dovecot, "run", "auth-userdb")}: ` +
            "Connection refused): housekeeping stopped; start Dovecot and run it again\n",
        );
        // (tsx keeps its compile cache there too.)
        expect(fs.readdirSync(tmp).filter((name) => name.startsWith("mailadmin-housekeeping-"))).toEqual([]);
      } finally {
        await l.sandbox.startComponent("dovecot");
        await waitFor("Dovecot to answer", () => authOk(`ewa@${A}`, PASSWORD.other));
      }
    });
  });
}
