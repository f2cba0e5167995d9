// `mailserver sandbox` as an operator runs it: the real CLI in its own process, until SIGTERM. Under
// `npm run test:mail:pg` with `--database postgres` on the test file's private cluster (DATABASE_URL).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sandboxCliArgs } from "@/e2e/support/sandbox-cli";
import { runCommand } from "@/lib/cli/commands";
import { createAccount } from "@/lib/server/resources/accounts";
import { createAlias } from "@/lib/server/resources/aliases";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { createMailingList } from "@/lib/server/resources/mailing-lists";
import {
  closeTestDatabase,
  LineSocket,
  mailTestsOnPostgres,
  missingMailPackages,
  newMailTestRoot,
  openTestDatabase,
  testPgCluster,
  waitFor,
} from "../testing/mail-daemons";
import { maildirNew } from "./outbound-sink";
import { alive, descendants, freePort, freePorts, greets } from "./processes";
import { checkPrerequisites, SANDBOX_PORTS, SandboxPrerequisiteError, type SandboxInfo } from "./sandbox";

vi.mock("server-only", () => ({}));

const missing = missingMailPackages();

describe("sandbox prerequisites", () => {
  it("names missing Debian packages with the apt-get line", () => {
    const fake = {
      name: "x",
      packages: ["mailadmin-no-such-package"],
      start: () => ({ stop: () => Promise.resolve() }),
      ready: () => Promise.resolve(true),
    };
    expect(() => checkPrerequisites([fake])).toThrow(SandboxPrerequisiteError);
    expect(() => checkPrerequisites([fake])).toThrow(
      "missing Debian packages: mailadmin-no-such-package (install them: apt-get install -y mailadmin-no-such-package)",
    );
  });

  it("the CLI reports it on one line with exit 2", async () => {
    const r = await runCli(["mailserver", "sandbox", "--dir", "/nonexistent/x"], { PATH: "/nonexistent" });
    // Without dpkg-query on PATH every package counts as missing.
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: missing Debian packages: .*postfix.* \(install them: apt-get install -y .*\)\n$/);
  });
});

describe("mailserver sandbox --only and --port-base", () => {
  it("the JSON line lists only the running components' ports, with port_base; send says what is missing or how to start it again", async () => {
    const root = newMailTestRoot("mailadmin-sandbox-only-");
    try {
      const dbFile = path.join(root, "db", "mail.db");
      await closeTestDatabase(await openTestDatabase(dbFile));
      const base = (await freePorts(SANDBOX_PORTS.length))[0]!;
      const dir = path.join(root, "s");
      const engine = mailTestsOnPostgres() ? ["--database", "postgres"] : [];
      const stdout = await firstJsonLine(sandboxCliArgs(dir, "--only", "dns", "--port-base", String(base), ...engine), {
        DATABASE_PATH: dbFile,
        MAIL_DB_PASSWORD: "sandbox-reader-1",
      });
      const info = JSON.parse(stdout) as Record<string, unknown>;
      // Before: every component's port (smtp, imap, redis...), as if they ran, and no port_base.
      expect(Object.keys(info).sort()).toEqual(
        [
          "database",
          "database_engine",
          "dir",
          "dns",
          "dns_port",
          "dns_records",
          "host_name",
          "only",
          "port_base",
          "publish_dns",
          "rbl_zones",
          "shared_doveadm_password",
          "srs_domain",
        ].sort(),
      );
      expect(info).toMatchObject({
        port_base: base,
        only: ["dns"],
        dns: base + SANDBOX_PORTS.indexOf("dns"),
        dns_port: null,
        publish_dns: false,
      });
      const send = (on: string) =>
        runCli(["mailserver", "sandbox", "send", "--dir", on, "--from", "a@outside.test", "--to", "b@x.test"]);
      const noPostfix = await send(dir);
      expect([noPostfix.status, noPostfix.stderr]).toEqual([
        1,
        `error: the sandbox in ${dir} runs no postfix (started with --only without it)\n`,
      ]);

      // A stopped sandbox of another port base: the hint starts it again on the same ports and components (before,
      // without its --only).
      const stopped = path.join(root, "stopped");
      fs.mkdirSync(stopped);
      const port = await freePort();
      fs.writeFileSync(path.join(stopped, "sandbox.json"), JSON.stringify({ ...info, smtp: port, port_base: port }));
      const late = await send(stopped);
      expect([late.status, late.stderr]).toEqual([
        1,
        `error: nothing answers on 127.0.0.1:${port}: the sandbox in ${stopped} is not running ` +
          `(start it with \`npm run --silent cli -- mailserver sandbox --dir ${stopped}${engine.map((a) => ` ${a}`).join("")} --port-base ${port} --only dns\`)\n`,
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("mailserver sandbox as one of several mail hosts (MAIL_HOST_NAME, DOVEADM_PASSWORD)", () => {
  let root: string;
  let dbFile: string;
  const engine = () => (mailTestsOnPostgres() ? ["--database", "postgres"] : []);

  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-sandbox-host-");
    dbFile = path.join(root, "db", "mail.db");
    const db = await openTestDatabase(dbFile);
    await runCommand(db, ["mailserver", "host", "set", "imap2", "--address", "127.0.0.1"]);
    await closeTestDatabase(db);
  });

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it("refuses a MAIL_HOST_NAME that is not a host name or not a host of mail_hosts, and a DOVEADM_PASSWORD Dovecot's configuration cannot hold; nothing starts", async () => {
    const dir = path.join(root, "refused");
    // Before, the sandbox ignored both and ran: the timeout stops it (exit 0).
    const start = (env: Record<string, string>) =>
      runCli(
        ["mailserver", "sandbox", "--dir", dir, "--only", "dns", ...engine()],
        { DATABASE_PATH: dbFile, ...env },
        30_000,
      );
    const [badName, unknown, badPassword, noReaderPassword] = await Promise.all([
      start({ MAIL_HOST_NAME: "Imap_2" }),
      start({ MAIL_HOST_NAME: "imap9" }),
      start({ MAIL_HOST_NAME: "imap2", DOVEADM_PASSWORD: "two words\nmail_plugins = x" }),
      // On PostgreSQL a sandbox with daemons sets the mail role's password at start: a random one (MAIL_DB_PASSWORD
      // unset) locked the other host's daemons out.
      mailTestsOnPostgres()
        ? runCli(
            ["mailserver", "sandbox", "--dir", dir, "--only", "dovecot", ...engine()],
            { MAIL_HOST_NAME: "imap2", MAIL_DB_PASSWORD: "" },
            30_000,
          )
        : undefined,
    ]);
    // The words of `mailserver config` (MAIL_HOST_NAME) and of `domain set-mail-host` (a host not in mail_hosts).
    expect([badName.status, badName.stderr]).toEqual([
      1,
      "error: mail host name 'Imap_2': lowercase letters, digits, dots and dashes (up to 64)\n",
    ]);
    expect([unknown.status, unknown.stderr]).toEqual([
      1,
      "error: no mail host imap9 (add it: mailserver host set imap9 --address <address>)\n",
    ]);
    expect([badPassword.status, badPassword.stderr]).toEqual([
      1,
      "error: DOVEADM_PASSWORD: letters, digits and . _ + / = ~ - only (it goes into Dovecot's configuration), e.g. from openssl rand -hex 24\n",
    ]);
    if (noReaderPassword)
      expect([noReaderPassword.status, noReaderPassword.stderr]).toEqual([
        2,
        "error: MAIL_HOST_NAME=imap2 on PostgreSQL needs MAIL_DB_PASSWORD, the same for every sandbox on this database: " +
          "each start sets the mail role's password, and a random one locks the other sandboxes' Postfix and Dovecot out\n",
      ]);
    expect(fs.existsSync(dir)).toBe(false);
  }, 60_000);

  it.skipIf(missing.length > 0)(
    "plays the host MAIL_HOST_NAME names with DOVEADM_PASSWORD as its doveadm server's password; the restart hint names both",
    async () => {
      if (mailTestsOnPostgres()) testPgCluster().psql(`ALTER ROLE ${testPgCluster().user} CREATEROLE`);
      const dir = path.join(root, "imap2");
      const base = (await freePorts(SANDBOX_PORTS.length))[0]!;
      const password = "c2FuZGJveC1kb3ZlYWRt-0123456789abcdef";
      const stdout = await firstJsonLine(
        sandboxCliArgs(dir, "--only", "dovecot", "--port-base", String(base), ...engine()),
        {
          DATABASE_PATH: dbFile,
          MAIL_DB_PASSWORD: "sandbox-reader-1",
          MAIL_HOST_NAME: "imap2",
          DOVEADM_PASSWORD: password,
        },
      );
      const info = JSON.parse(stdout) as SandboxInfo;
      // Before: no host (every mailbox served here) and a random password, which no other host could know.
      expect(info).toMatchObject({
        host_name: "imap2",
        shared_doveadm_password: true,
        doveadm: base + SANDBOX_PORTS.indexOf("doveadm"),
        sieve: base + SANDBOX_PORTS.indexOf("sieve"),
      });
      const dovecotConf = path.join(dir, "dovecot", "dovecot.conf");
      expect(fs.readFileSync(dovecotConf, "utf8")).toContain(`\ndoveadm_password = ${password}\n`);
      // The password opens every mailbox through the doveadm port: root's only.
      expect(fs.statSync(dovecotConf).mode & 0o777).toBe(0o600);
      // The generated queries proxy the other hosts' mailboxes, as `mailserver config` with MAIL_HOST_NAME writes them.
      expect(fs.readFileSync(path.join(dir, "conf", "dovecot", "dovecot-sql.conf.ext"), "utf8")).toContain(
        "h.host <> 'imap2'",
      );
      expect(fs.readFileSync(path.join(dir, "conf", "postfix", "mailbox-transport.cf"), "utf8")).toContain(
        "host <> 'imap2'",
      );

      // Stopped, the hint starts it again as imap2, and says the password must be given again.
      const port = await freePort();
      fs.writeFileSync(path.join(dir, "sandbox.json"), JSON.stringify({ ...info, smtp: port }));
      const late = await runCli([
        "mailserver",
        "sandbox",
        "send",
        "--dir",
        dir,
        "--from",
        "a@outside.test",
        "--to",
        "b@x.test",
      ]);
      expect([late.status, late.stderr]).toEqual([
        1,
        `error: nothing answers on 127.0.0.1:${port}: the sandbox in ${dir} is not running (start it with ` +
          `\`MAIL_HOST_NAME=imap2 npm run --silent cli -- mailserver sandbox --dir ${dir}${engine()
            .map((a) => ` ${a}`)
            .join("")} --port-base ${base} --only dovecot\`, with the same DOVEADM_PASSWORD as the other mail hosts)\n`,
      ]);
    },
    60_000,
  );
});

/** Starts the CLI's sandbox with `args`, waits for its JSON line, stops it (exit 0 expected) and returns its output. */
async function firstJsonLine(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await waitFor("the JSON line", () => stdout.includes("\n") || child.exitCode !== null, 60_000);
  child.kill("SIGTERM");
  expect(await exited, stderr).toBe(0);
  return stdout;
}

function runCli(args: string[], env: Record<string, string> = {}, timeoutMs?: number) {
  return new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args],
      {
        env: { ...process.env, ...env },
        ...(timeoutMs ? { timeout: timeoutMs } : {}),
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("close", (status) => resolve({ stdout, stderr, status }));
  });
}

describe.skipIf(missing.length > 0)("mailserver sandbox", () => {
  let root: string;
  /** The sandbox's send helper (`mailserver sandbox send`) on this sandbox. */
  const sandboxSend = (...args: string[]) =>
    runCli(["mailserver", "sandbox", "send", "--dir", path.join(root, "s"), ...args]);
  let child: ChildProcess;
  let info: Required<SandboxInfo>;
  let stderr = "";
  const dbPath = () => path.join(root, "db", "mail.db");

  beforeAll(async () => {
    root = newMailTestRoot("mailadmin-sandbox-");
    const db = await openTestDatabase(dbPath());
    // On PostgreSQL the hosts set above share the database: this domain stays on none, on purpose.
    await runCommand(db, [
      "domain",
      "add",
      "sandbox-demo.test",
      "--postmaster-password",
      "Admin-pass1",
      "--mail-host",
      "none",
    ]);
    // A mailbox, an alias to it and a list it is subscribed to, for the delivery test below.
    const d = await getDomainOrThrow(db, "sandbox-demo.test");
    await createAccount(db, d, "ola", { password: "Ola-pass1" });
    await createAlias(db, d, "biuro", { target: "ola@sandbox-demo.test" });
    await createMailingList(db, d, "wszyscy", {
      privacy_mode: 0,
      accounts: ["ola@sandbox-demo.test", "postmaster@sandbox-demo.test"],
    });
    await closeTestDatabase(db);
    // On PostgreSQL the sandbox creates the mail role itself, as the owner of a throwaway database may
    // (e2e/support/with-pg-cluster.ts gives its owner CREATEROLE the same way).
    if (mailTestsOnPostgres()) testPgCluster().psql(`ALTER ROLE ${testPgCluster().user} CREATEROLE`);
    const engine = mailTestsOnPostgres() ? ["--database", "postgres"] : [];
    child = spawn(process.execPath, sandboxCliArgs(path.join(root, "s"), ...engine), {
      env: {
        ...process.env,
        DATABASE_PATH: dbPath(),
        SPAM_GREYLIST_DEFAULT: "0",
        MAIL_DB_PASSWORD: "sandbox-reader-1",
      },
    });
    let stdout = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    await waitFor("the JSON line", () => stdout.includes("\n") || child.exitCode !== null, 200_000);
    if (!stdout.includes("\n")) throw new Error(`sandbox exited: ${stderr}`);
    expect(stdout.split("\n").filter(Boolean)).toHaveLength(1);
    info = JSON.parse(stdout) as Required<SandboxInfo>;
  }, 240_000);

  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    if (root && !process.env.KEEP_MAIL_TEST_DIR) fs.rmSync(root, { recursive: true, force: true });
  });

  it("prints the ports, the outbound Maildir and the greylisting delay; every port answers", async () => {
    expect(info).toMatchObject({
      outbound: path.join(root, "s", "outbound"),
      greylist_delay_s: 3,
      spf: true,
      rbl: true,
    });
    // SRS rewrites to the first hosted domain, which Postfix receives mail for (a bounce to an SRS address comes
    // back); the SQLite side read a column the view does not have and fell back to sandbox.test, which it does not.
    expect(info.srs_domain).toBe("sandbox-demo.test");
    expect(await greets(info.smtp, /^220 /m)).toBe(true);
    expect(await greets(info.submission, /^220 /m)).toBe(true);
    expect(await greets(info.imap, /^\* OK/m)).toBe(true);
    expect(await greets(info.pop3, /^\+OK/m)).toBe(true);
    // A ManageSieve port of its own among the others for the host rows (before, they kept the default 4190, a real
    // Dovecot's or another sandbox's); none runs there, as in the generated configuration.
    expect(info.sieve).toBe(info.smtp + SANDBOX_PORTS.indexOf("sieve"));
    expect(await greets(info.lists_lmtp, /^220 .*LMTP/m)).toBe(true); // the list service (docs/lists.md)
    // The ports `mailserver check` takes (--events-url, --quota-status): the event service answers HTTP, and
    // Dovecot's quota-status answers a policy request for a hosted account (DUNNO: not over quota).
    const events = await fetch(`http://127.0.0.1:${info.events}/`);
    expect([events.status, await events.text()]).toEqual([405, "POST only"]);
    expect(
      await greets(
        info.quota_status,
        /^action=/m,
        "request=smtpd_access_policy\nrecipient=ola@sandbox-demo.test\nsize=1\n\n",
      ),
    ).toBe(true);
    // The MX does not relay for 127.0.0.1 (no mynetworks exemption); submission needs a login.
    const relay = await sandboxSend("--from", "a@outside.test", "--to", "b@elsewhere.test");
    expect(relay.status).toBe(1);
    expect(relay.stderr).toMatch(/Relay access denied/);
  });

  it("the MX and the submission port refuse VRFY: which addresses exist is not told outside a transaction", async () => {
    for (const port of [info.smtp, info.submission]) {
      const s = await LineSocket.connect(port);
      try {
        await s.until(/^220 /m);
        s.write("EHLO client.mailadmin.test\r\n");
        expect(await s.until(/^250 /m)).not.toMatch(/^250[- ]VRFY/m);
        // Before: 252 2.0.0 for an existing address, 550 5.1.1 for one that is not.
        for (const address of ["ola@sandbox-demo.test", "nikt@sandbox-demo.test"]) {
          s.write(`VRFY ${address}\r\n`);
          expect(await s.until(/^\d{3} /m)).toMatch(/^502 5\.5\.1 VRFY command is disabled/m);
        }
      } finally {
        s.close();
      }
    }
  });

  it("the MX takes no logins and reads no login rule (no SASL warning in Postfix's log); submission offers AUTH and refuses a sender the login does not own", async () => {
    const postfixLog = () => fs.readFileSync(path.join(root, "s", "logs", "postfix.log"), "utf8");
    const s = await LineSocket.connect(info.smtp);
    try {
      await s.until(/^220 /m);
      s.write("EHLO client.mailadmin.test\r\n");
      expect(await s.until(/^250 /m)).not.toMatch(/^250[- ]AUTH/m);
      s.write("MAIL FROM:<sasl-warning@outside.test>\r\n");
      await s.until(/^250 /);
      s.write("RCPT TO:<nikt@sandbox-demo.test>\r\n");
      expect(await s.until(/^\d{3} /)).toMatch(/^5\d\d /);
    } finally {
      s.close();
    }
    // smtpd logs the RCPT's refusal after any warning of its restrictions: once it is in the log, so would they be.
    await waitFor("the MX's refusal in Postfix's log", () => postfixLog().includes("from=<sasl-warning@outside.test>"));
    // Before: "warning: restriction `reject_authenticated_sender_login_mismatch' ignored: no SASL support" per RCPT.
    expect(postfixLog()).not.toMatch(/no SASL support/);

    const { default: SMTPConnection } = await import("nodemailer/lib/smtp-connection");
    const connection = new SMTPConnection({ host: "127.0.0.1", port: info.submission, ignoreTLS: true });
    try {
      const refused = await new Promise<string>((resolve, reject) => {
        connection.once("error", reject);
        connection.connect(() =>
          connection.login({ user: "ola@sandbox-demo.test", pass: "Ola-pass1" }, (err) =>
            err
              ? reject(err)
              : connection.send(
                  { from: "postmaster@sandbox-demo.test", to: ["ola@sandbox-demo.test"] },
                  "Subject: x\r\n\r\nx\r\n",
                  (sent) => resolve(sent?.response ?? "accepted"),
                ),
          ),
        );
      });
      expect(refused).toMatch(
        /^553 5\.7\.1 <postmaster@sandbox-demo\.test>: Sender address rejected: not owned by user ola@/,
      );
    } finally {
      connection.close();
    }
  });

  it("reads the database it was given: the SQLite file, or PostgreSQL through pgsql maps as the mail role", () => {
    const cf = fs.readFileSync(path.join(root, "s", "conf", "postfix", "virtual-mailbox-maps.cf"), "utf8");
    if (mailTestsOnPostgres()) {
      expect(info).toMatchObject({
        database_engine: "postgres",
        database: testPgCluster().url.replace(/:[^:@/]+@/, "@"),
      });
      expect(cf).toContain(
        `hosts = 127.0.0.1:${testPgCluster().port}\nuser = mail_reader\npassword = sandbox-reader-1\n`,
      );
      expect(fs.readFileSync(path.join(root, "s", "postfix", "main.cf"), "utf8")).toContain("proxy:pgsql:");
    } else {
      expect(info).toMatchObject({ database_engine: "sqlite", database: dbPath() });
      expect(cf).toContain(`dbpath = ${dbPath()}\n`);
    }
  });

  it("delivers to a mailbox, through an alias and through a list into the Maildirs", async () => {
    const send = (to: string, subject: string) =>
      sandboxSend("--from", "nadawca@outside.test", "--to", to, "--subject", subject);
    for (const [to, subject] of [
      ["ola@sandbox-demo.test", "to-mailbox"],
      ["biuro@sandbox-demo.test", "to-alias"],
      ["wszyscy@sandbox-demo.test", "to-list"],
    ]) {
      const r = await send(to!, subject!);
      expect(r.stdout, r.stderr).toMatch(/^250 /);
    }
    const inbox = (name: string) => {
      const dir = path.join(root, "s", "vmail", "sandbox-demo.test", name, "Maildir", "new");
      return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8")) : [];
    };
    const subjects = (name: string) =>
      inbox(name)
        .map((m) => /^Subject: (.*)$/m.exec(m)?.[1])
        .sort();
    await waitFor("three messages for ola", () => subjects("ola").length === 3, 30_000);
    expect(
      subjects("ola")
        .map((x) => x?.replace(/^\[wszyscy\] /, ""))
        .sort(),
    ).toEqual(["to-alias", "to-list", "to-mailbox"]);
    await waitFor("the list copy for postmaster", () => subjects("postmaster").length === 1, 30_000);
    const copy = inbox("postmaster")[0]!;
    expect(copy).toMatch(/^Subject: .*to-list/m);
    expect(copy).toMatch(/^List-Id: .*<wszyscy\.sandbox-demo\.test>/m);
  }, 120_000); // three CLI starts (tsx compiles the CLI each time), each sending through the real daemons

  it("files mail for a domain it does not host into the outbound Maildir (send helper, submission with SASL)", async () => {
    const r = await sandboxSend(
      "--user",
      "postmaster@sandbox-demo.test",
      "--password",
      "Admin-pass1",
      "--from",
      "postmaster@sandbox-demo.test",
      "--to",
      "someone@elsewhere.test",
      "--subject",
      "leaves-the-sandbox",
    );
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^250 /);
    const file = await waitFor("the outbound file", () => maildirNew(info.outbound)[0], 20_000);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain("X-Sandbox-Envelope-To: <someone@elsewhere.test>");
    expect(text).toContain("Subject: leaves-the-sandbox");
  });

  it("the submission port takes both SASL mechanisms the generated Dovecot configuration offers, PLAIN and LOGIN", async () => {
    const { default: SMTPConnection } = await import("nodemailer/lib/smtp-connection");
    for (const method of ["PLAIN", "LOGIN"]) {
      const connection = new SMTPConnection({ host: "127.0.0.1", port: info.submission, ignoreTLS: true });
      const login = new Promise<void>((resolve, reject) => {
        connection.once("error", reject);
        connection.connect(() =>
          // nodemailer reads the mechanism from the credentials' `method`, which its types do not name.
          connection.login(
            { user: "postmaster@sandbox-demo.test", pass: "Admin-pass1", method } as { user: string; pass: string },
            (err) => (err ? reject(err) : resolve()),
          ),
        );
      });
      try {
        await expect(login, method).resolves.toBeUndefined();
      } finally {
        connection.close();
      }
    }
  });

  it("the MX ends DATA only at <CR><LF>.<CR><LF>: a second transaction smuggled after <LF>.<CR><LF> is message text", async () => {
    const s = await LineSocket.connect(info.smtp);
    let replies = "";
    try {
      await s.until(/^220 /);
      s.write("EHLO relay.outside.test\r\n");
      await s.until(/^250 /);
      s.write("MAIL FROM:<nadawca@outside.test>\r\nRCPT TO:<ola@sandbox-demo.test>\r\nDATA\r\n");
      await s.until(/^354 /);
      // What a relaying server that passes a bare <LF> on would send: the outer message, then, after <LF>.<CR><LF>,
      // a transaction with the hosted domain's postmaster as its sender.
      s.write(
        "From: nadawca@outside.test\r\nTo: ola@sandbox-demo.test\r\nSubject: outer-smuggling\r\n\r\nouter\n.\r\n" +
          "MAIL FROM:<postmaster@sandbox-demo.test>\r\nRCPT TO:<ola@sandbox-demo.test>\r\nDATA\r\n" +
          "From: postmaster@sandbox-demo.test\r\nTo: ola@sandbox-demo.test\r\nSubject: smuggled\r\n\r\nx\r\n.\r\n",
      );
      replies += await s.until(/^250 2\.0\.0 /);
      s.write("QUIT\r\n");
      replies += await s.until(/^221 /);
    } finally {
      s.close();
    }
    // Before: "250 … queued" after <LF>.<CR><LF>, then 250, 250, 354 and a second "queued" for the smuggled message.
    expect(replies.match(/queued as/g)).toHaveLength(1);
    const dir = path.join(root, "s", "vmail", "sandbox-demo.test", "ola", "Maildir", "new");
    const outer = await waitFor(
      "the outer message",
      () =>
        fs
          .readdirSync(dir)
          .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
          .find((m) => m.includes("Subject: outer-smuggling")),
      30_000,
    );
    expect(outer).toContain("MAIL FROM:<postmaster@sandbox-demo.test>");
  });

  it("a SIGTERM while it is still starting stops the components already running and leaves no process behind", async () => {
    const engine = mailTestsOnPostgres() ? ["--database", "postgres"] : [];
    const early = spawn(process.execPath, sandboxCliArgs(path.join(root, "early"), ...engine), {
      env: { ...process.env, DATABASE_PATH: dbPath(), MAIL_DB_PASSWORD: "sandbox-reader-1" },
    });
    let log = "";
    early.stderr.on("data", (c: Buffer) => (log += c.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => early.once("exit", (code) => resolve(code)));
    // Redis and the DNS server run by the time Rspamd is being started.
    await waitFor("Rspamd starting", () => log.includes("sandbox: starting rspamd") || early.exitCode !== null, 60_000);
    const pids = descendants(early.pid!);
    expect(pids.length, log).toBeGreaterThan(0);
    early.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(log).toMatch(/SIGTERM: stopped while starting\n$/);
    expect(alive(pids)).toEqual([]);
  }, 90_000);

  it("stops everything within 30 s on SIGTERM and leaves no process behind", async () => {
    const pids = descendants(child.pid!);
    // Postfix's master and workers, Dovecot's, Rspamd's, Redis.
    expect(pids.length).toBeGreaterThan(10);
    const started = Date.now();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    const code = await exited;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(code).toBe(0);
    expect(stderr).toMatch(/sandbox: stopped\n$/);
    expect(alive(pids)).toEqual([]);
    // Its sandbox.json is still there: sending now says the sandbox is not running, not a bare ECONNREFUSED.
    const late = await sandboxSend("--from", "a@outside.test", "--to", "ola@sandbox-demo.test");
    expect(late.status).toBe(1);
    expect(late.stderr).toBe(
      `error: nothing answers on 127.0.0.1:${info.smtp}: the sandbox in ${path.join(root, "s")} is not running ` +
        `(start it with \`npm run --silent cli -- mailserver sandbox --dir ${path.join(root, "s")}` +
        `${mailTestsOnPostgres() ? " --database postgres" : ""}\`)\n`,
    );
  }, 40_000);
});
