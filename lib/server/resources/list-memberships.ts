import "server-only";
// The domain's lists an account belongs to, as subscriber or moderator (what deleting it takes it out of).
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import type { AccountListMembership } from "@/lib/schemas/list-moderation";

export function accountListMemberships(db: Db, domain: DomainRow, email: string): AccountListMembership[] {
  const rows = db.$client
    .prepare(
      `SELECT l.name AS name, l.email AS email, group_concat(m.role) AS roles
       FROM list_members m JOIN mailing_lists l ON l.id = m.list_id
       WHERE m.address = ? AND l.domain_id = ? GROUP BY l.id ORDER BY l.name`,
    )
    .all(email, domain.id) as { name: string; email: string; roles: string }[];
  return rows.map((r) => ({ name: r.name, email: r.email, subscriber: r.roles.includes("subscriber"), moderator: r.roles.includes("moderator") }));
}
