import "server-only";
// What the list service reads and writes in the panel's database: lists by address, members, held posts,
// confirmation tokens and bounces. Written once with drizzle's query builder, so the same code runs on SQLite and
// on PostgreSQL (docs/architecture.md, "Services are async"); every write goes through withTransaction.
import crypto from "node:crypto";
import { and, asc, count, eq, gt, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  domains,
  listBounces,
  listHeldPosts,
  listMembers,
  listRequests,
  listTokens,
  mailingLists,
  type MailingListRow,
} from "@/db/schema";
import { changedRows, forUpdate, withTransaction } from "@/db/transaction";

export type ListRow = MailingListRow & { domain: string };

export const sha256 = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
export const newToken = () => crypto.randomBytes(24).toString("base64url");

interface TokenRow {
  listId: number;
  action: "subscribe" | "unsubscribe";
  address: string;
  expiresAt: number;
}

const tokenColumns = {
  listId: listTokens.listId,
  action: listTokens.action,
  address: listTokens.address,
  expiresAt: listTokens.expiresAt,
};

const subscriberOf = (listId: number) => and(eq(listMembers.listId, listId), eq(listMembers.role, "subscriber"));

/** The list with its domain's name, by a condition on mailing_lists. */
async function listWhere(db: Db, where: ReturnType<typeof eq>): Promise<ListRow | undefined> {
  const [row] = await db
    .select({ list: mailingLists, domain: domains.name })
    .from(mailingLists)
    .innerJoin(domains, eq(domains.id, mailingLists.domainId))
    .where(where)
    .limit(1);
  return row && { ...row.list, domain: row.domain };
}

/** Stores a post (held for moderation, or already approved to be sent later); returns its id. */
async function insertPost(
  tx: Db,
  listId: number,
  sender: string,
  subject: string,
  message: Buffer,
  tokenHash: string,
  status: "held" | "approved",
): Promise<number> {
  const [row] = await tx
    .insert(listHeldPosts)
    .values({ listId, sender, subject, size: message.length, message, tokenHash, status, createdAt: Date.now() })
    .returning({ id: listHeldPosts.id });
  return row!.id;
}

/** The window of the per-client budget of confirmation requests. */
export const REQUEST_WINDOW_MS = 3_600_000;

/** Why a confirmation request was not made. */
export type RequestRefusal = "pending" | "budget";
class Refused extends Error {
  constructor(readonly why: RequestRefusal) {
    super(why);
  }
}

const live = (row: TokenRow | undefined) => (row && row.expiresAt >= Date.now() ? row : undefined);

export function listStore(db: Db) {
  /** Runs `write` on post `id` only while it is held (a moderator's decision ends that); true when it changed it. */
  const whileHeld = (id: number, write: (tx: Db, held: SQL | undefined) => Promise<unknown>) =>
    withTransaction(
      db,
      async (tx) =>
        changedRows(tx, await write(tx, and(eq(listHeldPosts.id, id), eq(listHeldPosts.status, "held")))) > 0,
    );
  return {
    listByEmail: (email: string) => listWhere(db, eq(mailingLists.email, email)),
    listById: (id: number) => listWhere(db, eq(mailingLists.id, id)),
    async role(listId: number, address: string): Promise<{ subscriber: boolean; moderator: boolean }> {
      const rows = await db
        .select({ role: listMembers.role })
        .from(listMembers)
        .where(and(eq(listMembers.listId, listId), eq(listMembers.address, address)));
      const roles = rows.map((r) => r.role);
      return { subscriber: roles.includes("subscriber"), moderator: roles.includes("moderator") };
    },
    /** Subscribers in pages by address (keyset), so a big list is never held in memory at once. */
    async subscribersAfter(listId: number, after: string, limit: number): Promise<string[]> {
      const rows = await db
        .select({ address: listMembers.address })
        .from(listMembers)
        .where(and(subscriberOf(listId), gt(listMembers.address, after)))
        .orderBy(asc(listMembers.address))
        .limit(limit);
      return rows.map((r) => r.address);
    },
    async moderators(listId: number): Promise<string[]> {
      const rows = await db
        .select({ address: listMembers.address })
        .from(listMembers)
        .where(and(eq(listMembers.listId, listId), eq(listMembers.role, "moderator")))
        .orderBy(asc(listMembers.position));
      return rows.map((r) => r.address);
    },
    async subscriberCount(listId: number): Promise<number> {
      const [row] = await db.select({ n: count() }).from(listMembers).where(subscriberOf(listId));
      return Number(row?.n ?? 0);
    },
    /** Adds a subscriber at the end of the list's order; false when already subscribed. */
    subscribe: (listId: number, address: string) =>
      withTransaction(db, async (tx) => {
        const next = sql`(SELECT coalesce(max(${listMembers.position}), -1) + 1 FROM ${listMembers}
          WHERE ${listMembers.listId} = ${listId} AND ${listMembers.role} = 'subscriber')`;
        const result = await tx
          .insert(listMembers)
          .values({ listId, role: "subscriber", address, position: next })
          .onConflictDoNothing()
          .execute();
        return changedRows(tx, result) > 0;
      }),
    /** Removes a subscriber and its bounce record; false when it was not subscribed. */
    unsubscribe: (listId: number, address: string) =>
      withTransaction(db, async (tx) => {
        await tx
          .delete(listBounces)
          .where(and(eq(listBounces.listId, listId), eq(listBounces.address, address)))
          .execute();
        const result = await tx
          .delete(listMembers)
          .where(and(subscriberOf(listId), eq(listMembers.address, address)))
          .execute();
        return changedRows(tx, result) > 0;
      }),
    /**
     * A confirmation token, unless the list and address already have one pending or the client address (when given:
     * the pages' requests) used up `budget` requests within the hour. The list's row is locked, so two processes
     * cannot both find no pending request; the client's request is counted after it is written, so concurrent
     * requests never pass the budget together.
     */
    async requestToken(
      listId: number,
      action: "subscribe" | "unsubscribe",
      address: string,
      ttlMs: number,
      client?: { address: string; budget: number },
    ): Promise<{ token: string } | { refused: RequestRefusal }> {
      const token = newToken();
      const now = Date.now();
      try {
        await withTransaction(db, async (tx) => {
          await forUpdate(tx, tx.select({ id: mailingLists.id }).from(mailingLists).where(eq(mailingLists.id, listId)));
          const pending = await tx
            .select({ hash: listTokens.tokenHash })
            .from(listTokens)
            .where(and(eq(listTokens.listId, listId), eq(listTokens.address, address), gte(listTokens.expiresAt, now)))
            .limit(1);
          if (pending.length) throw new Refused("pending");
          if (client) {
            await tx.insert(listRequests).values({ client: client.address, createdAt: now }).execute();
            const [used] = await tx
              .select({ n: count() })
              .from(listRequests)
              .where(and(eq(listRequests.client, client.address), gt(listRequests.createdAt, now - REQUEST_WINDOW_MS)));
            if (Number(used?.n ?? 0) > client.budget) throw new Refused("budget");
          }
          await tx
            .insert(listTokens)
            .values({ tokenHash: sha256(token), listId, action, address, expiresAt: now + ttlMs })
            .execute();
        });
      } catch (err) {
        if (err instanceof Refused) return { refused: err.why };
        throw err;
      }
      return { token };
    },
    /** The token's request without using it up (the confirmation page's GET). */
    async peekToken(token: string): Promise<TokenRow | undefined> {
      const [row] = await db
        .select(tokenColumns)
        .from(listTokens)
        .where(eq(listTokens.tokenHash, sha256(token)))
        .limit(1);
      return live(row);
    },
    /** Uses the token up: single use, and only before it expires. */
    async takeToken(token: string): Promise<TokenRow | undefined> {
      const [row] = await withTransaction(db, (tx) =>
        tx
          .delete(listTokens)
          .where(eq(listTokens.tokenHash, sha256(token)))
          .returning(tokenColumns),
      );
      return live(row);
    },
    /** How many posts of the list wait for a moderator's decision. */
    async heldCount(listId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(listHeldPosts)
        .where(and(eq(listHeldPosts.listId, listId), eq(listHeldPosts.status, "held")));
      return Number(row?.n ?? 0);
    },
    hold: (listId: number, sender: string, subject: string, message: Buffer, tokenHash: string): Promise<number> =>
      withTransaction(db, (tx) => insertPost(tx, listId, sender, subject, message, tokenHash, "held")),
    /**
     * A post of the list stored earlier whose bytes are exactly `message`, held or approved (Postfix delivering the same
     * post again after a 451 or a lost answer), else undefined.
     */
    async postWithMessage(listId: number, message: Buffer): Promise<{ id: number; status: string } | undefined> {
      const rows = await db
        .select({ id: listHeldPosts.id, status: listHeldPosts.status, message: listHeldPosts.message })
        .from(listHeldPosts)
        .where(and(eq(listHeldPosts.listId, listId), eq(listHeldPosts.size, message.length)));
      const found = rows.find((r) => Buffer.from(r.message).equals(message));
      return found && { id: found.id, status: found.status };
    },
    /** Gives a held post a new moderators' link (the old one stops working); false when it is no longer held. */
    setHeldToken: (id: number, tokenHash: string) =>
      whileHeld(id, (tx, held) => tx.update(listHeldPosts).set({ tokenHash }).where(held).execute()),
    /** Deletes a post while it is still held; false when it is not (a moderator decided it). */
    unhold: (id: number) => whileHeld(id, (tx, held) => tx.delete(listHeldPosts).where(held).execute()),
    /** A post to send later (a big list's): kept as an approved post, which the pump sends and deletes. */
    queue: (listId: number, sender: string, subject: string, message: Buffer): Promise<number> =>
      withTransaction(db, (tx) => insertPost(tx, listId, sender, subject, message, sha256(newToken()), "approved")),
    async heldByToken(
      token: string,
    ): Promise<{ id: number; listId: number; sender: string; subject: string; status: string } | undefined> {
      const [row] = await db
        .select({
          id: listHeldPosts.id,
          listId: listHeldPosts.listId,
          sender: listHeldPosts.sender,
          subject: listHeldPosts.subject,
          status: listHeldPosts.status,
        })
        .from(listHeldPosts)
        .where(eq(listHeldPosts.tokenHash, sha256(token)))
        .limit(1);
      return row;
    },
    /** Approves a held post; false when it is not held (any more). */
    approve: (id: number) =>
      whileHeld(id, (tx, held) => tx.update(listHeldPosts).set({ status: "approved" }).where(held).execute()),
    deleteHeld: (id: number) =>
      withTransaction(
        db,
        async (tx) => changedRows(tx, await tx.delete(listHeldPosts).where(eq(listHeldPosts.id, id)).execute()) > 0,
      ),
    /** One approved post at a time: a message may be as large as Postfix's message_size_limit. */
    approved: (): Promise<{ id: number; listId: number; message: Buffer }[]> =>
      db
        .select({ id: listHeldPosts.id, listId: listHeldPosts.listId, message: listHeldPosts.message })
        .from(listHeldPosts)
        .where(eq(listHeldPosts.status, "approved"))
        .orderBy(asc(listHeldPosts.id))
        .limit(1),
    /** Deletes expired tokens and posts held since before `heldBefore`; returns how many posts. */
    expire: (heldBefore: number) =>
      withTransaction(db, async (tx) => {
        await tx.delete(listTokens).where(lt(listTokens.expiresAt, Date.now())).execute();
        await tx
          .delete(listRequests)
          .where(lt(listRequests.createdAt, Date.now() - REQUEST_WINDOW_MS))
          .execute();
        return changedRows(
          tx,
          await tx
            .delete(listHeldPosts)
            .where(and(eq(listHeldPosts.status, "held"), lt(listHeldPosts.createdAt, heldBefore)))
            .execute(),
        );
      }),
    recordBounce: (listId: number, address: string, reason: string) =>
      withTransaction(db, (tx) =>
        tx
          .insert(listBounces)
          .values({ listId, address, count: 1, lastAt: Date.now(), lastReason: reason })
          .onConflictDoUpdate({
            target: [listBounces.listId, listBounces.address],
            set: {
              count: sql`${listBounces.count} + 1`,
              lastAt: sql`excluded.last_at`,
              lastReason: sql`excluded.last_reason`,
            },
          })
          .execute(),
      ),
  };
}
export type ListStore = ReturnType<typeof listStore>;
