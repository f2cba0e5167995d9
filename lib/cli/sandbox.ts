import "server-only";
// `mailserver sandbox`, `mailserver sandbox send` and `mailserver policy` of the operator CLI.
import crypto from "node:crypto";
import fs from "node:fs";
import nodemailer from "nodemailer";
import { databasePath } from "@/db/client";
import { doveadmPassword, mailDbPassword, postgresUrl } from "@/lib/config.mjs";
import { CLI, intOption, operatorPath, requiredOption, stringOption, UsageError, type Command } from "./args";
import { DEFAULT_ANTISPAM_OPTIONS } from "@/lib/mailserver/antispam-config";
import { openGreylist } from "@/lib/mailserver/policy/greylist";
import { startPolicyServer } from "@/lib/mailserver/policy/policy-server";
import { SpamPolicy } from "@/lib/mailserver/policy/spam-policy";
import { spamDefaults } from "@/lib/server/spam-defaults";
import { checkedMailHost, localMailHost } from "@/lib/mailserver/mail-hosts";
import { SANDBOX_COMPONENTS } from "@/lib/mailserver/sandbox/components";
import {
  checkDoveadmPassword,
  missingNeeds,
  Sandbox,
  SANDBOX_PORTS,
  sandboxLayout,
  SandboxPrerequisiteError,
  type SandboxInfo,
} from "@/lib/mailserver/sandbox/sandbox";

/** Resolves on the first SIGTERM or SIGINT. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => () => {
      process.off("SIGTERM", term);
      process.off("SIGINT", int);
      resolve(signal);
    };
    const term = on("SIGTERM");
    const int = on("SIGINT");
    process.on("SIGTERM", term);
    process.on("SIGINT", int);
  });
}

const hostPort = (value: string, what: string) => {
  const m = /^(?:inet:)?([^:]+):(\d+)$/.exec(value);
  if (!m) throw new UsageError(`${what}: expected host:port, got '${value}'`);
  return { host: m[1]!, port: Number(m[2]) };
};

/**
 * The command that starts a stopped sandbox again on the same database, ports and components, as the same mail host
 * (sandbox.json's; a file written by an older release may lack some). The doveadm password is not in the file: the
 * command says to give it again when one was given.
 */
const startCommand = (dir: string, info: Partial<SandboxInfo>) =>
  [
    "`",
    info.host_name ? `MAIL_HOST_NAME=${info.host_name} ` : "",
    `${CLI} mailserver sandbox --dir ${dir}`,
    info.database_engine === "postgres" ? " --database postgres" : "",
    info.port_base ? ` --port-base ${info.port_base}` : "",
    info.dns_port ? ` --dns-port ${info.dns_port}` : "",
    info.publish_dns ? " --publish-dns" : "",
    info.only ? ` --only ${info.only.join(",")}` : "",
    "`",
    info.shared_doveadm_password ? ", with the same DOVEADM_PASSWORD as the other mail hosts" : "",
  ].join("");

export const SANDBOX_COMMANDS: Command[] = [
  {
    name: "mailserver sandbox send",
    summary: "Sends one message into a running sandbox (its MX port, or submission with --user/--password).",
    notes:
      "Reads the ports from <dir>/sandbox.json. Prints the server's answer; exit 1 when the message is refused or deferred.",
    example: `${CLI} mailserver sandbox send --dir /tmp/sandbox --from someone@example.net --to jan.nowak@demo.example.com --subject Hello`,
    options: {
      dir: { type: "string", value: "<dir>", required: true, path: "file", help: "the sandbox's folder (required)" },
      from: { type: "string", value: "<email>", required: true, help: "envelope and From: address (required)" },
      to: { type: "string", value: "<email,...>", required: true, help: "recipients, comma-separated (required)" },
      subject: { type: "string", value: "<text>", help: "the subject (default 'Sandbox test')" },
      body: { type: "string", value: "<text>", help: "the text (default a line saying where it came from)" },
      "spam-score": {
        type: "string",
        value: "N",
        help: "adds X-Sandbox-Spam-Score: N (the sandbox's Rspamd adds N to the score)",
      },
      user: { type: "string", value: "<email>", help: "send through the submission port, logged in as this account" },
      password: { type: "string", value: "<pw>", help: "its password" },
    },
    // SMTP only: it works with the database down, as a rehearsal of an outage (docs/postgresql.md) needs.
    ownConnection: true,
    async run(_ctx, { values }) {
      const dir = requiredOption(this, values, "dir");
      const infoFile = sandboxLayout(dir).info;
      if (!fs.existsSync(infoFile)) throw new Error(`${infoFile} does not exist: is the sandbox running there?`);
      const info = JSON.parse(fs.readFileSync(infoFile, "utf8")) as SandboxInfo;
      const user = stringOption(values, "user");
      const score = stringOption(values, "spam-score");
      if (score !== undefined && !Number.isFinite(Number(score)))
        throw new UsageError(`--spam-score: not a number: '${score}'`);
      const port = user ? info.submission : info.smtp;
      if (port === undefined) throw new Error(`the sandbox in ${dir} runs no postfix (started with --only without it)`);
      const transport = nodemailer.createTransport({
        host: "127.0.0.1",
        port,
        secure: false,
        ignoreTLS: true,
        name: "client.sandbox.test",
        auth: user ? { user, pass: stringOption(values, "password") ?? "" } : undefined,
      });
      const from = requiredOption(this, values, "from");
      const sending = transport.sendMail({
        from,
        to: requiredOption(this, values, "to")
          .split(",")
          .map((s) => s.trim()),
        subject: stringOption(values, "subject") ?? "Sandbox test",
        text: stringOption(values, "body") ?? `Sent by \`mailserver sandbox send\` from ${from}.\n`,
        headers: score !== undefined ? { "X-Sandbox-Spam-Score": score } : {},
      });
      // sandbox.json stays after the sandbox stops: a bare "connect ECONNREFUSED" did not say so.
      const result = await sending.catch((err: unknown) => {
        // nodemailer reports it as ESOCKET, the system's code in the message.
        if (!/\bECONNREFUSED\b/.test((err as Error).message)) throw err;
        throw new Error(
          `nothing answers on 127.0.0.1:${port}: the sandbox in ${dir} is not running ` +
            `(start it with ${startCommand(dir, info)})`,
        );
      });
      const names = (list: (string | { address: string })[]) =>
        list.map((a) => (typeof a === "string" ? a : a.address)).join(", ") || "none";
      return `${result.response} (accepted: ${names(result.accepted)}; refused: ${names(result.rejected)})`;
    },
  },
  {
    name: "mailserver sandbox",
    summary:
      "Runs the whole mail system (Postfix, Dovecot, Rspamd, Redis, policy service, DNS) privately on 127.0.0.1.",
    notes:
      "Configured by the same generator as `mailserver config`, over DATABASE_PATH (or with --database postgres over\n" +
      "DATABASE_URL, the mail role created with MAIL_DB_PASSWORD), every file under <dir>. With MAIL_HOST_NAME (a\n" +
      "host of `mailserver host list`) it plays that mail host, as `mailserver config` writes it; DOVEADM_PASSWORD\n" +
      "gives its doveadm server the password the other hosts share (else a random one). docs/mail-hosts.md. When\n" +
      "everything answers it prints one JSON line (the ports, the outbound Maildir, greylist_delay_s...) and runs until\n" +
      "SIGTERM or SIGINT, then stops everything it started. Mail for domains the database does not host lands in the\n" +
      "outbound Maildir. Needs root (Postfix's master). docs/mail-server.md, Sandbox. Never with a production\n" +
      "DATABASE_URL: it may reset the mail role's password and writes as the mail system does (docs/postgresql.md).",
    example: `${CLI} mailserver sandbox --dir /tmp/sandbox`,
    options: {
      dir: {
        type: "string",
        value: "<dir>",
        required: true,
        path: "file",
        help: "the folder for every file of the instances (required)",
      },
      "port-base": {
        type: "string",
        value: "N",
        min: 0,
        // Counted from the sandbox's port list, so the help cannot fall behind a new listener.
        help:
          `listen on N, N+1 ... N+${SANDBOX_PORTS.length - 1} instead of free ports (0: free ports); best below ` +
          "the ephemeral range (/proc/sys/net/ipv4/ip_local_port_range, 32768 on Debian), where an outgoing " +
          "connection may hold one (EADDRINUSE)",
      },
      "greylist-delay": { type: "string", value: "S", min: 0, help: "greylisting's wait in seconds (default 3)" },
      "srs-domain": { type: "string", value: "<domain>", help: "postsrsd's domain (default: the first hosted domain)" },
      database: {
        type: "string",
        value: "<engine>",
        help: "sqlite (DATABASE_PATH) or postgres (DATABASE_URL); default postgres when DATABASE_URL is set",
      },
      "publish-dns": {
        type: "boolean",
        help: "publish the records the hosted domains need (the DNS page's) on the sandbox's DNS",
      },
      "dns-port": { type: "string", value: "N", min: 0, help: "the DNS server's UDP port (default: with the others)" },
      only: {
        type: "string",
        value: "<component,...>",
        help: `run only these components (of ${SANDBOX_COMPONENTS.map((c) => c.name).join(", ")}); one that needs another (postfix: dovecot) is refused without it`,
      },
    },
    async run(ctx, { values }) {
      const dir = requiredOption(this, values, "dir");
      const portBase = intOption(this, values, "port-base") || undefined;
      const delay = intOption(this, values, "greylist-delay") ?? 3;
      const log = (line: string) => process.stderr.write(`sandbox: ${line}\n`);
      const url = postgresUrl();
      const engine = stringOption(values, "database") ?? (url ? "postgres" : "sqlite");
      if (engine !== "sqlite" && engine !== "postgres")
        throw new UsageError(`--database ${engine}: expected sqlite or postgres`);
      if (engine === "postgres" && !url)
        throw new UsageError("--database postgres needs DATABASE_URL=postgres://... (docs/postgresql.md, Sandbox)");
      if (engine === "sqlite" && url)
        throw new UsageError("--database sqlite: unset DATABASE_URL (the services of this process use it)");
      // The mail role's password: MAIL_DB_PASSWORD, or a fresh one (the role is created or updated at start).
      const postgres =
        engine === "postgres"
          ? { url: url!, readerPassword: mailDbPassword() ?? crypto.randomBytes(18).toString("hex") }
          : undefined;
      const only = stringOption(values, "only")
        ?.split(",")
        .map((s) => s.trim());
      const unknown = only?.filter((name) => !SANDBOX_COMPONENTS.some((c) => c.name === name));
      if (unknown?.length) throw new UsageError(`--only ${unknown.join(",")}: no such component`);
      const chosen = only && SANDBOX_COMPONENTS.filter((c) => only.includes(c.name));
      const needs = chosen && missingNeeds(chosen);
      if (needs) throw new UsageError(`--only ${only.join(",")}: ${needs}`);
      // The mail host it plays, read and checked as `mailserver config`, housekeeping and events check it
      // (checkedMailHost): under a name no row of mail_hosts has, every placed mailbox would be proxied away, its own
      // ones too.
      const named = localMailHost();
      const hostName = named && (await checkedMailHost(ctx.db(), named));
      // Each start on PostgreSQL sets the mail role's password (prepareMailReader): a random one per sandbox locked the
      // other mail host's Postfix and Dovecot out ("password authentication failed for user mail_reader").
      if (hostName && postgres && !mailDbPassword() && (chosen ?? SANDBOX_COMPONENTS).some((c) => c.packages.length))
        throw new UsageError(
          `MAIL_HOST_NAME=${hostName} on PostgreSQL needs MAIL_DB_PASSWORD, the same for every sandbox on this ` +
            "database: each start sets the mail role's password, and a random one locks the other sandboxes' Postfix and Dovecot out",
        );
      // From the environment (service.env, or the shell), not an option: `ps` shows a command line to every user.
      const sharedPassword = doveadmPassword();
      if (sharedPassword !== undefined) checkDoveadmPassword(sharedPassword, "DOVEADM_PASSWORD");
      // Listened for from the start: a signal while the components start stops those already running.
      const stopping = untilSignal();
      const starting = new AbortController();
      void stopping.then(() => starting.abort());
      let sandbox: Sandbox;
      try {
        sandbox = await Sandbox.start({
          signal: starting.signal,
          dir,
          databasePath: databasePath(),
          postgres,
          portBase,
          greylistDelayS: delay,
          defaults: spamDefaults(),
          log,
          srsDomain:
            typeof values["srs-domain"] === "string" && values["srs-domain"] ? values["srs-domain"] : undefined,
          components: chosen,
          dnsPort: intOption(this, values, "dns-port") || undefined,
          publishDns: values["publish-dns"] === true,
          hostName,
          doveadmPassword: sharedPassword,
        });
      } catch (err) {
        if (starting.signal.aborted) {
          log(`${await stopping}: stopped while starting`);
          return "";
        }
        if (err instanceof SandboxPrerequisiteError) throw new UsageError(err.message);
        throw err;
      }
      process.stdout.write(`${JSON.stringify(sandbox.info)}\n`);
      const signal = await stopping;
      log(`${signal}: stopping`);
      const guard = setTimeout(() => {
        log("not stopped within 30 s");
        process.exit(1);
      }, 30_000);
      await sandbox.stop();
      clearTimeout(guard);
      log("stopped");
      return "";
    },
  },
  {
    name: "mailserver policy",
    summary:
      "The policy service Postfix asks at RCPT: aliases that lead nowhere, black and white lists, SPF, RBL, greylisting, quota per recipient; signed-in senders' sending limit.",
    notes:
      "Reads each recipient's settings from the database at every request (a change applies to the next message),\n" +
      'and counts signed-in senders\' recipients there (send_counts, docs/mail-server.md "Sending limit"), and\n' +
      'records their submission sessions (submission_sessions, "Submission sessions" there).\n' +
      "SPAM_RBL_DEFAULT, SPAM_SPF_DEFAULT and SPAM_GREYLIST_DEFAULT give the server's defaults, as they do for the API.",
    example: `${CLI} mailserver policy --listen 127.0.0.1:10040 --state /var/lib/mailadmin/greylist.db`,
    options: {
      listen: {
        type: "string",
        value: "<host:port>",
        help: `where to listen (default ${DEFAULT_ANTISPAM_OPTIONS.policyService.replace("inet:", "")})`,
      },
      state: {
        type: "string",
        value: "<file>|database",
        help: "greylisting's state: a file of this host, or `database` (shared by every MX); default: the database on PostgreSQL, greylist.db beside the SQLite file",
      },
      "greylist-delay": { type: "string", value: "S", min: 0, help: "greylisting's wait in seconds (default 300)" },
      "rbl-zones": { type: "string", value: "<zone,...>", help: "DNS blocklists (default zen.spamhaus.org)" },
      dns: { type: "string", value: "<ip:port,...>", help: "DNS servers (default the system's)" },
      "quota-status": {
        type: "string",
        value: "<host:port>",
        help: "Dovecot's quota-status service (default 127.0.0.1:10190)",
      },
    },
    async run(ctx, { values }) {
      const listen = hostPort(stringOption(values, "listen") ?? DEFAULT_ANTISPAM_OPTIONS.policyService, "--listen");
      // The process's database (PostgreSQL with DATABASE_URL, else the SQLite file), as the API reads it.
      // The state first: on SQLite it needs the database file to exist, which opening the database would create.
      const state = stringOption(values, "state");
      const greylist = openGreylist(() => ctx.db(), state === "database" ? state : state && operatorPath(state), {
        postgres: postgresUrl() !== undefined,
        databasePath: databasePath(),
      });
      const db = ctx.db();
      const log = (line: string) => process.stderr.write(`${line}\n`);
      const policy = new SpamPolicy({
        db,
        greylist,
        greylistDelayS: intOption(this, values, "greylist-delay") ?? 300,
        rblZones: (stringOption(values, "rbl-zones") ?? "zen.spamhaus.org")
          .split(",")
          .map((z) => z.trim())
          .filter(Boolean),
        defaults: spamDefaults(),
        dnsServers: stringOption(values, "dns")
          ?.split(",")
          .map((s) => s.trim()),
        quotaStatus: hostPort(stringOption(values, "quota-status") ?? "127.0.0.1:10190", "--quota-status"),
        log,
      });
      const server = await startPolicyServer((req) => policy.decide(req), listen, log);
      process.stderr.write(`policy service listening on ${listen.host}:${server.port}\n`);
      await untilSignal();
      await server.close();
      greylist.close();
      return "";
    },
  },
];
