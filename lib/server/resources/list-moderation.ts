import "server-only";
// A list's held posts and recorded bounces, for the panel's list editor. Approving only marks the post: the list
// service (lib/lists) sends approved posts (it polls every 2 s), so the web process never hands mail to Postfix.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { listBounces, listHeldPosts, type DomainRow } from "@/db/schema";
import { listsHeldDays } from "@/lib/config.mjs";
import { apiError } from "@/lib/errors/api-error";
import { listModerationActionSchema, type ListModeration } from "@/lib/schemas/list-moderation";
import { withTransaction } from "@/db/transaction";
import { getListOrThrow } from "./mailing-lists";

export async function listModeration(db: Db, domain: DomainRow, name: string): Promise<ListModeration> {
  const list = await getListOrThrow(db, domain, name);
  const held = await db
    .select({
      id: listHeldPosts.id,
      sender: listHeldPosts.sender,
      subject: listHeldPosts.subject,
      size: listHeldPosts.size,
      status: listHeldPosts.status,
      createdAt: listHeldPosts.createdAt,
    })
    .from(listHeldPosts)
    .where(eq(listHeldPosts.listId, list.id))
    .orderBy(asc(listHeldPosts.createdAt), asc(listHeldPosts.id))
    .limit(1000);
  const bounces = await db
    .select()
    .from(listBounces)
    .where(eq(listBounces.listId, list.id))
    .orderBy(desc(listBounces.lastAt))
    .limit(1000);
  return {
    held: held.map((h) => ({
      id: h.id,
      sender: h.sender,
      subject: h.subject,
      size: h.size,
      status: h.status,
      date: new Date(h.createdAt).toISOString(),
    })),
    bounces: bounces.map((b) => ({
      address: b.address,
      count: b.count,
      last_at: new Date(b.lastAt).toISOString(),
      last_reason: b.lastReason,
    })),
    held_days: listsHeldDays(),
  };
}

export function approveHeldPosts(db: Db, domain: DomainRow, name: string, ids: number[]): Promise<void> {
  return moderateHeldPosts(db, domain, name, { approve: ids });
}

/** Approve and reject held posts of one list; an id that is not a held post of this list fails the whole call. */
export async function moderateHeldPosts(db: Db, domain: DomainRow, name: string, body: unknown): Promise<void> {
  // Unknown fields are refused naming the field, as every other body is (500.115); a bad id list names its field.
  const unknown =
    body && typeof body === "object" && !Array.isArray(body)
      ? Object.keys(body).find((k) => k !== "approve" && k !== "reject")
      : undefined;
  if (unknown !== undefined) throw apiError("unknownField", unknown);
  const parsed = listModerationActionSchema.safeParse(body);
  if (!parsed.success)
    throw apiError("invalidListOption", parsed.error.issues[0]?.path[0] === "reject" ? "reject" : "approve");
  const { approve = [], reject = [] } = parsed.data;
  await withTransaction(db, async (tx) => {
    const list = await getListOrThrow(tx, domain, name);
    const all = [...approve, ...reject];
    const found = all.length
      ? await tx
          .select({ id: listHeldPosts.id })
          .from(listHeldPosts)
          .where(
            and(eq(listHeldPosts.listId, list.id), eq(listHeldPosts.status, "held"), inArray(listHeldPosts.id, all)),
          )
      : [];
    const missing = all.filter((id) => !found.some((f) => f.id === id));
    if (missing.length) throw apiError("recordNotFound", String(missing[0]), { resource: "held post" });
    if (approve.length)
      await tx.update(listHeldPosts).set({ status: "approved" }).where(inArray(listHeldPosts.id, approve));
    if (reject.length) await tx.delete(listHeldPosts).where(inArray(listHeldPosts.id, reject));
  });
}
