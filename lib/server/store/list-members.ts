import "server-only";
// The statements on a list's members (`list_members`), for the list service (lib/server/resources/mailing-lists.ts)
// and the big-list PUT (list-members-put.ts). Raw statements whose rows are arrays (db/dialect.ts, `prepareRaw`): a
// 50,000-member list is read and diffed without building an object per row.
import { sql } from "drizzle-orm";
import { dialectOf } from "@/db/dialect";
import { prepared } from "./prepared";

export type MemberRole = "subscriber" | "moderator";

/** Members written per statement. */
const BATCH = 5000;

export interface ListMemberStatements {
  /** The list's member version, moved by triggers on every change of its members (list_members_version_* in each engine's baseline). */
  version(listId: number): Promise<number | undefined>;
  /** Up to `limit` subscribers after (position, address), in their order, as [address, position]. */
  subscriberPage(listId: number, position: number, address: string, limit: number): Promise<[string, number][]>;
  /** Every member of a role as [address, position], in no order. */
  current(listId: number, role: MemberRole): Promise<[string, number][]>;
  /** Every member of a role, in their order. */
  ordered(listId: number, role: MemberRole): Promise<string[]>;
  /** Removes these members of a role. */
  removeAll(listId: number, role: MemberRole, addresses: string[]): Promise<void>;
  /** Adds these addresses as members of a role, at positions `from`, `from + 1`, ... */
  addAll(listId: number, role: MemberRole, addresses: string[], from: number): Promise<void>;
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
  // The addresses go as one JSON array: one statement per batch, where a statement per member took 45 s for 66,000
  // on PostgreSQL (a round trip each, inside the list's transaction).
  const rows = dialectOf(db).jsonArrayRows(sql.placeholder("addresses"));
  const remove = prepare(
    sql`DELETE FROM list_members WHERE list_id = ${listId} AND role = ${role} AND address IN (SELECT value FROM ${rows} j)`,
  );
  const add = prepare(
    sql`INSERT INTO list_members (list_id, role, address, position)
        SELECT ${listId}, ${role}, j.value, ${position} + j.key FROM ${rows} j`,
  );
  /** `write` of the addresses in batches, each with the index of its first address. */
  const inBatches = async (addresses: string[], write: (batch: string, first: number) => Promise<number>) => {
    for (let i = 0; i < addresses.length; i += BATCH) await write(JSON.stringify(addresses.slice(i, i + BATCH)), i);
  };
  return {
    version: async (listId) => {
      const v = (await version.rows({ listId }))[0]?.[0];
      return v === undefined ? undefined : Number(v);
    },
    subscriberPage: async (listId, position, address, limit) =>
      (await page.rows({ listId, position, address, limit })) as [string, number][],
    current: async (listId, role) => (await current.rows({ listId, role })) as [string, number][],
    ordered: async (listId, role) => (await ordered.rows({ listId, role })).map((r) => r[0] as string),
    removeAll: (listId, role, addresses) =>
      inBatches(addresses, (batch) => remove.run({ listId, role, addresses: batch })),
    addAll: (listId, role, addresses, from) =>
      inBatches(addresses, (batch, first) => add.run({ listId, role, addresses: batch, position: from + first })),
  };
});
