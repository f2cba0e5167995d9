import "server-only";
// last_auth_date / last_auth_ip for mail logins (IMAP, POP3, SMTP AUTH through Dovecot's SASL), reported by
// Dovecot's auth policy hook after each authentication (docs/mail-server.md, "Last login"). Written only when
// the date or the address changes, like the API's own logins: a client reconnecting all day writes once.
import { and, eq, ne, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { changedRows, withTransaction } from "@/db/transaction";
import { accounts } from "@/db/schema";
import { today } from "@/lib/server/caller/auth";

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
