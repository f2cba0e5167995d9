import "server-only";
// The statements on a list's members (`list_members`), for the list service (lib/server/resources/mailing-lists.ts)
// and the big-list PUT (list-members-put.ts). Raw statements whose rows are arrays (db/dialect.ts, `prepareRaw`): a
// 50,000-member list is read and diffed without building an object per row.
import { sql } from "drizzle-orm";
import { dialectOf } from "@/db/dialect";
import { prepared } from "./prepared";

export type MemberRole = "subscriber" | "moderator";

export interface ListMemberStatements {
  /** The list's member version, moved by triggers on every change of its members (list_members_version_* in each engine's baseline). */
  version(listId: number): Promise<number | undefined>;
  /** Up to `limit` subscribers after (position, address), in their order, as [address, position]. */
  subscriberPage(listId: number, position: number, address: string, limit: number): Promise<[string, number][]>;
  /** Every member of a role as [address, position], in no order. */
  current(listId: number, role: MemberRole): Promise<[string, number][]>;
  /** Every member of a role, in their order. */
  ordered(listId: number, role: MemberRole): Promise<string[]>;
  /** How many rows it removed (0 or 1). */
  remove(listId: number, role: MemberRole, address: string): Promise<number>;
  add(listId: number, role: MemberRole, address: string, position: number): Promise<number>;
}

export const listMemberStatements = prepared((db): ListMemberStatements => {
  const prepare = (query: ReturnType<typeof sql>) => dialectOf(db).prepareRaw(db, query);
  const listId = sql.placeholder("listId");
  const role = sql.placeholder("role");
  const address = sql.placeholder("address");
  const position = sql.placeholder("position");
  const version = prepare(sql`SELECT version FROM list_member_versions WHERE list_id = ${listId}`);
  const page = prepare(
    sql`SELECT address, position FROM list_members
        WHERE list_id = ${listId} AND role = 'subscriber' AND (position, address) > (${position}, ${address})
        ORDER BY position, address LIMIT ${sql.placeholder("limit")}`,
  );
  const current = prepare(sql`SELECT address, position FROM list_members WHERE list_id = ${listId} AND role = ${role}`);
  const ordered = prepare(
    sql`SELECT address FROM list_members WHERE list_id = ${listId} AND role = ${role} ORDER BY position`,
  );
  const remove = prepare(
    sql`DELETE FROM list_members WHERE list_id = ${listId} AND role = ${role} AND address = ${address}`,
  );
  const add = prepare(
    sql`INSERT INTO list_members (list_id, role, address, position) VALUES (${listId}, ${role}, ${address}, ${position})`,
  );
  return {
    version: async (listId) => {
      const v = (await version.rows({ listId }))[0]?.[0];
      return v === undefined ? undefined : Number(v);
    },
    subscriberPage: async (listId, position, address, limit) =>
      (await page.rows({ listId, position, address, limit })) as [string, number][],
    current: async (listId, role) => (await current.rows({ listId, role })) as [string, number][],
    ordered: async (listId, role) => (await ordered.rows({ listId, role })).map((r) => r[0] as string),
    remove: (listId, role, address) => remove.run({ listId, role, address }),
    add: (listId, role, address, position) => add.run({ listId, role, address, position }),
  };
});
