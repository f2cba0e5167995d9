import "server-only";
// The domain's lists an account belongs to, as subscriber or moderator (what deleting it takes it out of).
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import type { DomainRow } from "@/db/schema";
import type { AccountListMembership } from "@/lib/schemas/list-moderation";

export async function accountListMemberships(
  db: Db,
  domain: DomainRow,
  email: string,
): Promise<AccountListMembership[]> {
  // Plain SQL both engines read alike (max over CASE instead of SQLite's group_concat).
  const rows = await dialectOf(db).all<{ name: string; email: string; subscriber: number; moderator: number }>(
    db,
    sql`SELECT l.name AS name, l.email AS email,
          max(CASE WHEN m.role = 'subscriber' THEN 1 ELSE 0 END) AS subscriber,
          max(CASE WHEN m.role = 'moderator' THEN 1 ELSE 0 END) AS moderator
        FROM list_members m JOIN mailing_lists l ON l.id = m.list_id
        WHERE m.address = ${email} AND l.domain_id = ${domain.id} GROUP BY l.id, l.name, l.email ORDER BY l.name`,
  );
  return rows.map((r) => ({
    name: r.name,
    email: r.email,
    subscriber: Number(r.subscriber) === 1,
    moderator: Number(r.moderator) === 1,
  }));
}
