// The configuration files the sandbox writes for its own Dovecot and Postfix: ports and folders of the sandbox,
// around the snippets `mailserver config` generates for production.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { SandboxContext } from "./sandbox";

/** Postfix's myhostname in the sandbox (and the name `mailserver check` is given as MAIL_HOST). */
export const SANDBOX_MYHOSTNAME = "mx.sandbox.test";

/** A login service listening on loopback at `port`, its implicit-TLS listener off (the sandbox has no TLS). */
const loginService = (protocol: "imap" | "pop3", port: number) => `service ${protocol}-login {
  inet_listener ${protocol} {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener ${protocol}s {
    port = 0
  }
}`;

export function writeDovecotConfig(ctx: SandboxContext): void {
  const l = ctx.layout;
  const p = ctx.ports;
  fs.mkdirSync(path.join(l.dovecot, "run"), { recursive: true });
  fs.mkdirSync(path.join(l.dovecot, "state"), { recursive: true });
  fs.writeFileSync(
    l.dovecotConf,
    `# The sandbox's Dovecot instance around the generated mailadmin.conf.
base_dir = ${l.dovecot}/run
state_dir = ${l.dovecot}/state
log_path = ${l.logs}/dovecot.log
protocols = imap pop3 lmtp
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
# Refused logins answer at once (a production server keeps the default 2 s delay).
auth_failure_delay = 0
default_internal_user = dovecot
default_login_user = dovenull
# Vacation replies go to Postfix's internal port (a production host uses sendmail).
submission_host = 127.0.0.1:${p.internal}
${loginService("imap", p.imap)}
${loginService("pop3", p.pop3)}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${p.lmtp}
  }
}
# doveadm's server: another mail host's \`doveadm sync ... tcp:\` (moving a domain, docs/mail-hosts.md).
doveadm_password = ${ctx.doveadmPassword}
service doveadm {
  inet_listener {
    address = 127.0.0.1
    port = ${p.doveadm}
  }
}
# SASL for Postfix's submission port.
service auth {
  inet_listener sasl {
    address = 127.0.0.1
    port = ${p.auth}
  }
}
!include ${l.conf}/dovecot/mailadmin.conf
`,
    { mode: 0o600 },
  );
  // It holds the doveadm password, which opens every mailbox through the doveadm port: root's only (Dovecot's
  // config process and doveadm read it as root). A file of an older start was 0644.
  fs.chmodSync(l.dovecotConf, 0o600);
}

/**
 * master.cf with Debian's chroot column (/usr/share/postfix/master.cf.dist): smtpd, cleanup, trivial-rewrite, lmtp
 * and the rest run chrooted in the queue directory, where the database's path does not exist; only proxymap (not
 * chrooted) opens the lookup tables, which is why `mailserver config` writes them as proxy:sqlite: maps.
 */
function masterCf(ctx: SandboxContext): string {
  const p = ctx.ports;
  const tls = path.join(ctx.layout.postfix, "tls");
  return `# The MX: clients are the Internet (no mynetworks), every filter applies.
127.0.0.1:${p.smtp} inet n - y - - smtpd
# Submission: SASL through Dovecot, authenticated users only.
127.0.0.1:${p.submission} inet n - y - - smtpd
  -o syslog_name=postfix/submission
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sender_restrictions=$mua_sender_restrictions
  -o smtpd_discard_ehlo_keywords=silent-discard
  -o smtpd_sasl_type=dovecot
  -o smtpd_sasl_path=inet:127.0.0.1:${p.auth}
  -o smtpd_tls_security_level=may
  -o smtpd_tls_cert_file=${tls}/cert.pem
  -o smtpd_tls_key_file=${tls}/key.pem
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
  -o { smtpd_recipient_restrictions = check_policy_service { inet:127.0.0.1:${p.policy}, policy_context=quota, default_action=DUNNO }, permit_sasl_authenticated, reject }
# (The first question of main.cf: black list and quota apply at RCPT to authenticated senders too.)
# Dovecot's own mail (vacation replies, Sieve forwards) and the events service's: trusted, like sendmail on a
# production host, so a forward keeps the X-Mailadmin headers the first delivery got (main.cf's header_checks remove
# them everywhere else), and through the same milter as sendmail's mail there (Rspamd's signing worker).
127.0.0.1:${p.internal} inet n - y - - smtpd
  -o syslog_name=postfix/internal
  -o mynetworks=127.0.0.0/8
  -o smtpd_relay_restrictions=permit_mynetworks,reject
  -o smtpd_recipient_restrictions=permit_mynetworks,reject
  -o smtpd_milters=$non_smtpd_milters
  -o receive_override_options=no_header_body_checks
# The list service's copies, as production's LISTS_SMTP listener (docs/lists.md): trusted, no milter, headers kept.
127.0.0.1:${p.lists_smtp} inet n - y - - smtpd
  -o syslog_name=postfix/lists
  -o mynetworks=127.0.0.0/8
  -o smtpd_relay_restrictions=permit_mynetworks,reject
  -o smtpd_recipient_restrictions=permit_mynetworks,reject
  -o smtpd_milters=
  -o receive_override_options=no_header_body_checks
# sendmail's path, as docs/deploy.md sets it on a production host.
pickup unix n - y 60 1 pickup
  -o receive_override_options=no_header_body_checks
cleanup unix n - y - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - y - - trivial-rewrite
bounce unix - - y - 0 bounce
defer unix - - y - 0 bounce
trace unix - - y - 0 bounce
verify unix - - y - 1 verify
flush unix n - y 1000? 0 flush
proxymap unix - - n - - proxymap
proxywrite unix - - n - 1 proxymap
smtp unix - - y - - smtp
relay unix - - y - - smtp
showq unix n - y - - showq
error unix - - y - - error
retry unix - - y - - error
discard unix - - y - - discard
# X-Original-To on each delivery, as docs/deploy.md sets it on a production host (main.cf.snippet).
lmtp unix - - y - - lmtp flags=O
# Mail for other domains (default_transport) goes to the outbound Maildir as it would leave: SRS senders kept,
# the smtp client's header checks applied.
outbound unix - - y - - lmtp
  -o lmtp_generic_maps=
  -o lmtp_header_checks=$smtp_header_checks
anvil unix - - y - 1 anvil
tlsmgr unix - - y 1000? 1 tlsmgr
scache unix - - y - 1 scache
postlog unix-dgram n - n - 1 postlogd
`;
}

export function writePostfixConfig(ctx: SandboxContext): void {
  const l = ctx.layout;
  fs.mkdirSync(path.join(l.postfix, "queue"), { recursive: true });
  fs.mkdirSync(path.join(l.postfix, "data"), { recursive: true });
  execFileSync("chown", ["postfix", path.join(l.postfix, "data")]);
  // A self-signed certificate for STARTTLS on the submission port, as `mailserver check` logs in there over TLS.
  const tls = path.join(l.postfix, "tls");
  if (!fs.existsSync(path.join(tls, "cert.pem"))) {
    fs.mkdirSync(tls, { recursive: true, mode: 0o700 });
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=mx.sandbox.test"].concat([
        "-keyout",
        path.join(tls, "key.pem"),
        "-out",
        path.join(tls, "cert.pem"),
      ]),
      { stdio: "pipe" },
    );
  }
  const snippet = fs.readFileSync(path.join(l.conf, "postfix", "main.cf.snippet"), "utf8");
  const base = `compatibility_level = 3.6
queue_directory = ${l.postfix}/queue
data_directory = ${l.postfix}/data
maillog_file_prefixes = ${l.root}
maillog_file = ${l.logs}/postfix.log
myhostname = ${SANDBOX_MYHOSTNAME}
mydomain = sandbox.test
myorigin = $myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
# The MX port treats 127.0.0.1 as the Internet: no client is exempt from the filters.
mynetworks =
alias_maps =
alias_database =
local_transport = error:no local delivery
smtputf8_enable = no
# Nothing leaves the machine: mail for domains the database does not host goes into the outbound Maildir.
default_transport = outbound:inet:127.0.0.1:${ctx.ports.outbound}
relay_transport = $default_transport
# As Debian's installer writes it ("Internet Site"); the snippet sets it again.
recipient_delimiter = +
`;
  // The snippet's settings replace the same lines above, as docs/deploy.md's `postconf -e` does on a real host
  // (a second line of one setting makes every Postfix tool warn "overriding earlier entry").
  const settingOf = (line: string) => /^([a-z0-9_]+)\s*=/.exec(line)?.[1];
  const set = new Set(snippet.split("\n").map(settingOf));
  const kept = base.split("\n").filter((line) => settingOf(line) === undefined || !set.has(settingOf(line)));
  fs.writeFileSync(path.join(l.postfix, "main.cf"), `${kept.join("\n")}\n${snippet}`);
  fs.writeFileSync(path.join(l.postfix, "master.cf"), masterCf(ctx));
}
