import "server-only";
// Mail logins (IMAP, POP3, SMTP AUTH through Dovecot's SASL) through Dovecot's auth policy hook (docs/mail-server.md,
// "Mail events"): before each authentication, whether the account is locked; after it, a failure counted against
// the same lock as the API's and the panel's (login_throttle), or last_auth_date / last_auth_ip recorded. Written
// only when the date or the address changes, like the API's own logins: a client reconnecting all day writes once.
import { and, eq, ne, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { changedRows, withTransaction } from "@/db/transaction";
import { accounts } from "@/db/schema";
import { today } from "@/lib/server/caller/auth";
import { failureGate } from "@/lib/server/caller/login-throttle";
import { normalizeIp } from "@/lib/server/http/ip-address";

/** Dovecot's auth policy answer: status 0 lets the authentication go on, -1 refuses it. */
export interface AuthPolicyAnswer {
  status: number;
  msg: string;
}
const ALLOW: AuthPolicyAnswer = { status: 0, msg: "" };

/**
 * Dovecot's auth policy request (`command` allow before an authentication, report after it; `data` its JSON). Before,
 * IMAP, POP3 and SMTP AUTH had only Dovecot's delay per client address: 200 wrong passwords over 20 connections took
 * 137 s, and the right one was then accepted. Now a locked account is refused before its password is checked, from any
 * address, for every way in. Only network logins count (a local tool's has no client address).
 */
export async function mailAuthPolicy(
  db: Db,
  command: string | null,
  data: Record<string, unknown>,
): Promise<AuthPolicyAnswer> {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const login = (str(data.login) || str(data.user)).trim().toLowerCase();
  // Dovecot listening on [::] reports an IPv4 client as ::ffff:1.2.3.4: the API's budget and last_auth_ip see 1.2.3.4.
  const remote = normalizeIp(str(data.remote));
  if (!remote || !login.includes("@")) return ALLOW;
  const gate = await failureGate(db, remote, login);
  if (command === "allow") return gate.lockedFor > 0 ? { status: -1, msg: "too many failed logins" } : ALLOW;
  // A report of a refusal by this policy checked no password, and neither did one without a password tried.
  if (command !== "report" || data.policy_reject === true || data.tried_password === false) return ALLOW;
  if (data.success === true) {
    await gate.succeed();
    await recordMailLogin(db, str(data.user) || login, remote);
  } else {
    await gate.fail();
  }
  return ALLOW;
}

/** True when the row changed. Logins without a client address (doveadm auth test, local tools) are not recorded. */
export async function recordMailLogin(db: Db, user: string, ip: string, date = today()): Promise<boolean> {
  const email = user.trim().toLowerCase();
  if (!email.includes("@") || !ip) return false;
  const changed = await withTransaction(db, async (tx) =>
    changedRows(
      tx,
      await tx
        .update(accounts)
        .set({ lastAuthDate: date, lastAuthIp: ip })
        .where(and(eq(accounts.email, email), or(ne(accounts.lastAuthDate, date), ne(accounts.lastAuthIp, ip)))),
    ),
  );
  return changed > 0;
}
