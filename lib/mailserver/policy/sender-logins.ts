// Who may send as an address: the view mail_sender_logins (an account its own address, the account an alias leads
// to that alias), which Postfix asks about the envelope sender (smtpd_sender_login_maps) and the policy service about
// the header From of a signed-in submission, so both read one rule.
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";

/** True when the SASL login `login` may send as `address` (both lowercase). */
export async function mayUseSender(db: Db, login: string, address: string): Promise<boolean> {
  const rows = await dialectOf(db).all<{ ok: number }>(
    db,
    sql`SELECT 1 AS ok FROM mail_sender_logins WHERE sender = ${address} AND login = ${login}`,
  );
  return rows.length > 0;
}
