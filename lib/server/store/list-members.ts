import "server-only";
// The statements on a list's members (`list_members`), for the list service (lib/server/resources/mailing-lists.ts)
// and the big-list PUT (list-members-put.ts). On SQLite raw better-sqlite3 statements: a 50,000-member list is
// read and diffed without building an object per row. On PostgreSQL the query builder's.
import { and, asc, eq, sql } from "drizzle-orm";
import { dialectOf } from "@/db/dialect";
import { listMembers, listMemberVersions } from "@/db/schema";
import { prepared } from "./prepared";

export type MemberRole = "subscriber" | "moderator";

export interface ListMemberStatements {
  /** The list's member version, moved by triggers on every change of its members (SQLite 0017, PostgreSQL 0002). */
  version(listId: number): Promise<number | undefined>;
  /** Up to `limit` subscribers after (position, address), in their order, as [address, position]. */
  subscriberPage(listId: number, position: number, address: string, limit: number): Promise<[string, number][]>;
  /** Every member of a role as [address, position], in no order. */
  current(listId: number, role: MemberRole): Promise<[string, number][]>;
  /** Every member of a role, in their order. */
  ordered(listId: number, role: MemberRole): Promise<string[]>;
  remove(listId: number, role: MemberRole, address: string): Promise<unknown>;
  add(listId: number, role: MemberRole, address: string, position: number): Promise<unknown>;
}

export const listMemberStatements = prepared((db): ListMemberStatements => {
  if (dialectOf(db).name === "sqlite") {
    const client = db.$client;
    const version = client.prepare("SELECT version FROM list_member_versions WHERE list_id = ?").pluck();
    const page = client
      .prepare(
        `SELECT address, position FROM list_members WHERE list_id = ? AND role = 'subscriber' AND (position, address) > (?, ?)
         ORDER BY position, address LIMIT ?`,
      )
      .raw();
    const current = client.prepare("SELECT address, position FROM list_members WHERE list_id = ? AND role = ?").raw();
    const ordered = client
      .prepare("SELECT address FROM list_members WHERE list_id = ? AND role = ? ORDER BY position")
      .pluck();
    const remove = client.prepare("DELETE FROM list_members WHERE list_id = ? AND role = ? AND address = ?");
    const add = client.prepare("INSERT INTO list_members (list_id, role, address, position) VALUES (?, ?, ?, ?)");
    return {
      version: (listId) => Promise.resolve(version.get(listId) as number | undefined),
      subscriberPage: (listId, position, address, limit) =>
        Promise.resolve(page.all(listId, position, address, limit) as [string, number][]),
      current: (listId, role) => Promise.resolve(current.all(listId, role) as [string, number][]),
      ordered: (listId, role) => Promise.resolve(ordered.all(listId, role) as string[]),
      remove: (listId, role, address) => Promise.resolve(remove.run(listId, role, address)),
      add: (listId, role, address, position) => Promise.resolve(add.run(listId, role, address, position)),
    };
  }
  const memberOf = and(
    eq(listMembers.listId, sql.placeholder("listId")),
    eq(listMembers.role, sql.placeholder("role")),
  );
  const current = db
    .select({ address: listMembers.address, position: listMembers.position })
    .from(listMembers)
    .where(memberOf)
    .prepare();
  const ordered = db
    .select({ address: listMembers.address })
    .from(listMembers)
    .where(memberOf)
    .orderBy(asc(listMembers.position))
    .prepare();
  const pair = (r: { address: string; position: number }) => [r.address, r.position] as [string, number];
  return {
    version: async (listId) =>
      (
        await db
          .select({ v: listMemberVersions.version })
          .from(listMemberVersions)
          .where(eq(listMemberVersions.listId, listId))
      )[0]?.v,
    subscriberPage: async (listId, position, address, limit) =>
      (
        await db
          .select({ address: listMembers.address, position: listMembers.position })
          .from(listMembers)
          .where(
            and(
              eq(listMembers.listId, listId),
              eq(listMembers.role, "subscriber"),
              sql`(${listMembers.position}, ${listMembers.address}) > (${position}, ${address})`,
            ),
          )
          .orderBy(asc(listMembers.position), asc(listMembers.address))
          .limit(limit)
      ).map(pair),
    current: async (listId, role) => (await current.execute({ listId, role })).map(pair),
    ordered: async (listId, role) => (await ordered.execute({ listId, role })).map((r) => r.address),
    remove: (listId, role, address) =>
      db
        .delete(listMembers)
        .where(and(eq(listMembers.listId, listId), eq(listMembers.role, role), eq(listMembers.address, address)))
        .execute(),
    add: (listId, role, address, position) =>
      db.insert(listMembers).values({ listId, role, address, position }).execute(),
  };
});
