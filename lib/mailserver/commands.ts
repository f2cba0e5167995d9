import "server-only";
// The `mailserver` command group of the operator CLI.
import fs from "node:fs";
import path from "node:path";
import { databasePath } from "@/db/client";
import { CLI, FailedWithReport, requiredOption, stringOption, type Command } from "@/lib/cli/args";
import { formatCheck, runMailServerCheck } from "./check";
import { DEFAULT_CONFIG_OPTIONS, writeMailServerConfig } from "./config";
import { runHousekeeping } from "./housekeeping";

const DOVECOT_CONFIG = { type: "string", value: "<file>", help: "Dovecot's configuration when it is not the default (doveadm -c)" } as const;

export const MAILSERVER_COMMANDS: Command[] = [
  {
    name: "mailserver config",
    summary: "Writes the Postfix lookup tables and the Dovecot configuration that read this database (DATABASE_PATH).",
    notes: "Run again when the database or the mailbox root moves; account changes never need it. The folder's\nREADME.md says where each file goes (docs/mail-server.md explains it all).",
    example: `DATABASE_PATH=/var/lib/mailadmin/mail.db ${CLI} mailserver config --out /etc/mailadmin --maildir-root /var/vmail`,
    options: {
      out: { type: "string", value: "<dir>", required: true, help: "the folder to write (required), for example /etc/mailadmin" },
      "maildir-root": { type: "string", value: "<dir>", help: `mailboxes live in <dir>/<domain>/<name> (default ${DEFAULT_CONFIG_OPTIONS.maildirRoot})` },
      "mail-user": { type: "string", value: "U", help: `system user owning the mailboxes (default ${DEFAULT_CONFIG_OPTIONS.mailUser})` },
      "mail-group": { type: "string", value: "G", help: `its group (default ${DEFAULT_CONFIG_OPTIONS.mailGroup})` },
      "db-group": { type: "string", value: "G", help: `group sharing the database with Postfix and Dovecot (default ${DEFAULT_CONFIG_OPTIONS.dbGroup})` },
      lmtp: { type: "string", value: "<transport>", help: `Postfix's virtual_transport (default ${DEFAULT_CONFIG_OPTIONS.lmtp})` },
    },
    run(_ctx, { values }) {
      const out = requiredOption(this, values, "out");
      const option = (name: string, fallback: string) => stringOption(values, name) ?? fallback;
      const files = writeMailServerConfig({
        outDir: path.resolve(out),
        databasePath: databasePath(),
        maildirRoot: path.resolve(option("maildir-root", DEFAULT_CONFIG_OPTIONS.maildirRoot)),
        mailUser: option("mail-user", DEFAULT_CONFIG_OPTIONS.mailUser),
        mailGroup: option("mail-group", DEFAULT_CONFIG_OPTIONS.mailGroup),
        dbGroup: option("db-group", DEFAULT_CONFIG_OPTIONS.dbGroup),
        lmtp: option("lmtp", DEFAULT_CONFIG_OPTIONS.lmtp),
      });
      return `Wrote ${files.length} files; read ${path.join(path.resolve(out), "README.md")}.`;
    },
  },
  {
    name: "mailserver housekeeping",
    summary: "Daily (systemd timer): expunges mail past each account's *_delete_after days, delivers usage warnings.",
    notes: "Runs doveadm, so it needs the right to use Dovecot's doveadm socket (root, or a member of its group).",
    example: `${CLI} mailserver housekeeping --dovecot-config /etc/dovecot/dovecot.conf`,
    options: {
      doveadm: { type: "string", value: "<path>", help: "the doveadm program (default doveadm from PATH)" },
      "dovecot-config": DOVECOT_CONFIG,
    },
    run(ctx, { values }) {
      const config = stringOption(values, "dovecot-config");
      const doveadm = [stringOption(values, "doveadm") ?? "doveadm", ...(config ? ["-c", config] : [])];
      const report = runHousekeeping(ctx.db(), { doveadm });
      return [
        ...report.expunged.map((l) => `expunge ${l}`),
        ...report.warned.map((l) => `warned ${l}`),
        ...(report.audit.deleted ? [`audit: ${report.audit.deleted} entries older than ${report.audit.days} days deleted`] : []),
      ].join("\n") || "nothing to do";
    },
  },
  {
    name: "mailserver check",
    summary: "Self-test of a live installation: one line per check, ✓ or ✗ with the reason; exit 1 when any fails.",
    notes:
      "Checks: the database (folder, file, -wal, -shm) open to the mail group; postmap -q (through Postfix's\n" +
      "proxymap) finds the account's domain, its mailbox and an alias; doveadm user and doveadm auth test for the\n" +
      "account; the LMTP and auth sockets accept connections; quota_clone writes the account's usage back (a marked\n" +
      "message is saved into the account's inbox and expunged again). Run it as root.",
    example: `${CLI} mailserver check --account check@example.org --password 'Check-pass1'`,
    options: {
      account: { type: "string", value: "<email>", required: true, help: "an account to test with (required; a dedicated one is best)" },
      password: { type: "string", value: "<pw>", required: true, help: "its password (required)" },
      alias: { type: "string", value: "<address>", help: "an alias to look up (default: one of the account's domain, else the account's own entry)" },
      "config-dir": { type: "string", value: "<dir>", help: "the folder `mailserver config` wrote (default /etc/mailadmin)" },
      "db-group": { type: "string", value: "G", help: `the database's group (default ${DEFAULT_CONFIG_OPTIONS.dbGroup})` },
      "postfix-config": { type: "string", value: "<dir>", help: "Postfix's configuration folder (postmap -c; default Postfix's own)" },
      "dovecot-config": DOVECOT_CONFIG,
      "lmtp-socket": { type: "string", value: "<path>", help: "default /var/spool/postfix/private/dovecot-lmtp" },
      "auth-socket": { type: "string", value: "<path>", help: "default /var/spool/postfix/private/auth" },
    },
    async run(ctx, { values }) {
      if (!fs.existsSync(databasePath())) throw new Error(`${databasePath()} does not exist (DATABASE_PATH)`);
      const results = await runMailServerCheck(ctx.db(), {
        databasePath: databasePath(),
        account: requiredOption(this, values, "account").toLowerCase(),
        password: requiredOption(this, values, "password"),
        alias: stringOption(values, "alias"),
        configDir: path.resolve(stringOption(values, "config-dir") ?? "/etc/mailadmin"),
        dbGroup: stringOption(values, "db-group") ?? DEFAULT_CONFIG_OPTIONS.dbGroup,
        postfixConfig: stringOption(values, "postfix-config"),
        dovecotConfig: stringOption(values, "dovecot-config"),
        lmtpSocket: stringOption(values, "lmtp-socket") ?? "/var/spool/postfix/private/dovecot-lmtp",
        authSocket: stringOption(values, "auth-socket") ?? "/var/spool/postfix/private/auth",
      });
      const output = results.map(formatCheck).join("\n");
      const failed = results.filter((r) => !r.ok).length;
      if (failed) throw new FailedWithReport(output, `${failed} of ${results.length} checks failed`);
      return `${output}\nall ${results.length} checks passed`;
    },
  },
];
