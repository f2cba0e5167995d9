// Test support for the PostgreSQL-only tests of several hosts (mail hosts, a replica, failover): their guard, the
// two hosted domains, what the operator runs to place them on hosts a and b (docs/mail-hosts.md), and an IMAP look
// at an inbox.
import { describe } from "vitest";
import type { Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { LineSocket, mailTestsOnPostgres, missingMailPackages, type MailTestLayout } from "./mail-daemons";

/** describe, skipped (saying why) unless on PostgreSQL (`npm run test:mail:pg`) with the mail packages installed. */
export function describeOnPostgres(what: string) {
  const missing = mailTestsOnPostgres() ? missingMailPackages() : [];
  if (missing.length) console.warn(`${what} SKIPPED: Debian packages missing: ${missing.join(" ")}`);
  return describe.skipIf(!mailTestsOnPostgres() || missing.length > 0);
}

export const A = "alpha.test";
export const B = "beta.test";
export const PW = "Konto-pass1";

/**
 * Registers hosts a and b before their sandboxes start (their ports are known only afterwards, placeOnHosts): a mail
 * event service refuses a host name mail_hosts does not have, as the operator's commands do.
 */
export async function registerHosts(db: Db): Promise<void> {
  for (const name of ["a", "b"]) await runCommand(db, ["mailserver", "host", "set", name, "--address", "127.0.0.1"]);
}

/** Registers hosts a and b with where the other reaches them, then places domain A on a and B on b. */
export async function placeOnHosts(db: Db, a: MailTestLayout, b: MailTestLayout): Promise<void> {
  for (const [name, l] of [
    ["a", a],
    ["b", b],
  ] as const) {
    const ports = [
      "--imap-port",
      `${l.ports.imap}`,
      "--pop3-port",
      `${l.ports.pop3}`,
      "--lmtp-port",
      `${l.ports.lmtp}`,
    ];
    await runCommand(db, ["mailserver", "host", "set", name, "--address", "127.0.0.1", ...ports]);
  }
  await runCommand(db, ["domain", "set-mail-host", A, "--mail-host", "a"]);
  await runCommand(db, ["domain", "set-mail-host", B, "--mail-host", "b"]);
}

/** Logs in over IMAP (password PW): the login's answer, the inbox's message count and each message's Subject. */
export async function imapInbox(
  port: number,
  user: string,
): Promise<{ login: string; exists: number; subjects: string[] }> {
  const s = await LineSocket.connect(port);
  try {
    await s.until(/^\* OK/);
    s.write(`a LOGIN "${user}" "${PW}"\r\n`);
    const login = await s.until(/^a /);
    if (!/^a OK/m.test(login)) return { login, exists: 0, subjects: [] };
    s.write("b SELECT INBOX\r\n");
    const exists = Number(/^\* (\d+) EXISTS/m.exec(await s.until(/^b /))?.[1] ?? 0);
    let subjects: string[] = [];
    if (exists) {
      s.write("c FETCH 1:* (BODY.PEEK[HEADER.FIELDS (SUBJECT)])\r\n");
      subjects = [...(await s.until(/^c /)).matchAll(/^Subject: (.*)$/gm)].map((m) => m[1]!);
    }
    s.write("z LOGOUT\r\n");
    return { login, exists, subjects };
  } finally {
    s.close();
  }
}
