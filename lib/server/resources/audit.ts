import "server-only";
// The audit log: every change made through the API, the panel or the CLI, written by the services
// themselves inside the change's own transaction (so a refused or rolled-back change leaves no entry, and no
// route can forget it). Who and from where come from the request's context, which the one API wrapper sets
// (lib/server/http/http.ts: `withAuditActor`); a change outside any request is the operator's CLI.
//
// An entry holds the domain, the actor, the client address, the channel, the action, the resource, the names and
// the fields changed with their old and new values. Secrets are never written: a password or SMS password appears
// as {changed: true} only. Lists of addresses are summarised (how many, and up to 20 added and removed), and a
// change to many names gives one entry whose old value is the one value all had, or the distinct ones (up to 10).
import { AsyncLocalStorage } from "node:async_hooks";
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { changedRows, withTransaction } from "@/db/transaction";
import type { Db } from "@/db/client";
import { containsPattern } from "@/db/like";
import { auditLog } from "@/db/schema";
import { clampPage } from "@/lib/schemas/page-number";

export type AuditAction = "create" | "update" | "delete";
export type AuditResource = "domain" | "account" | "alias" | "list" | "account_security";

export interface AuditActor {
  actor: string;
  clientIp: string;
  via: "api" | "panel" | "cli";
}

const context = new AsyncLocalStorage<AuditActor>();

/** Runs `fn` with `actor` as the author of every change it makes (set once per request by the API wrapper). */
export const withAuditActor = <T>(actor: AuditActor, fn: () => T): T => context.run(actor, fn);

const CLI_ACTOR: AuditActor = { actor: "cli", clientIp: "", via: "cli" };

/** Fields whose values never reach the log. */
const SECRET_FIELDS = new Set([
  "password",
  "password_retype",
  "sms_password_1",
  "sms_password_2",
  "current_password",
  "totp_secret",
]);
const LIST_SHOWN = 20;
const OLD_VALUES_SHOWN = 10;

type Value = unknown;

const same = (a: Value, b: Value) => JSON.stringify(a) === JSON.stringify(b);

/** A list field's change: counts and what was added and removed (never all 100,000 subscribers). */
function listChange(oldList: string[] | undefined, newList: string[]) {
  const before = new Set(oldList ?? []);
  const after = new Set(newList);
  const added = newList.filter((x) => !before.has(x));
  const removed = (oldList ?? []).filter((x) => !after.has(x));
  return listChangeSummary(oldList?.length ?? 0, newList.length, added, removed);
}

/** A list field's change from its counts and the entries added (new order) and removed (old order). */
export function listChangeSummary(oldCount: number, newCount: number, added: string[], removed: string[]) {
  return {
    old_count: oldCount,
    new_count: newCount,
    added: added.slice(0, LIST_SHOWN),
    removed: removed.slice(0, LIST_SHOWN),
    ...(added.length > LIST_SHOWN || removed.length > LIST_SHOWN ? { truncated: true } : {}),
  };
}

/**
 * The changed fields of `input` (API field names and their new values), given each named record's old values of
 * those fields (`olds`, one object per name; absent for a create). Unchanged fields are left out.
 */
export function fieldChanges(
  input: Record<string, Value>,
  olds: Record<string, Value>[] | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, next] of Object.entries(input)) {
    if (next === undefined) continue;
    if (SECRET_FIELDS.has(field)) {
      if (field !== "password_retype" && field !== "current_password" && next !== "") out[field] = { changed: true };
      continue;
    }
    if (!olds) {
      out[field] = Array.isArray(next) ? listChange(undefined, next as string[]) : { old: null, new: next };
      continue;
    }
    const before = olds.map((o) => o[field]);
    if (before.every((b) => same(b, next))) continue;
    if (Array.isArray(next)) {
      out[field] = listChange(
        before.length === 1 && Array.isArray(before[0]) ? (before[0] as string[]) : undefined,
        next as string[],
      );
      continue;
    }
    const distinct = [...new Map(before.map((b) => [JSON.stringify(b), b])).values()];
    out[field] =
      distinct.length === 1
        ? { old: distinct[0], new: next }
        : { old_values: distinct.slice(0, OLD_VALUES_SHOWN), new: next };
  }
  return out;
}

export interface AuditEntryInput {
  domain: string;
  action: AuditAction;
  resource: AuditResource;
  names: string[];
  changes?: Record<string, unknown>;
}

/** Writes one entry (call inside the change's transaction). An update that changed nothing is not logged. */
export async function recordChange(db: Db, entry: AuditEntryInput): Promise<void> {
  const changes = entry.changes ?? {};
  if (entry.action === "update" && Object.keys(changes).length === 0) return;
  const who = context.getStore() ?? CLI_ACTOR;
  const searchText = [
    who.actor,
    who.clientIp,
    entry.resource,
    entry.action,
    ...entry.names.slice(0, 1000),
    ...Object.keys(changes),
  ]
    .join(" ")
    .toLowerCase();
  await db.insert(auditLog).values({
    at: Date.now(),
    domain: entry.domain,
    actor: who.actor,
    clientIp: who.clientIp,
    via: who.via,
    action: entry.action,
    resource: entry.resource,
    names: entry.names,
    changes,
    searchText,
  });
}

export interface AuditQuery {
  /** Only this domain's entries (a postmaster's view); all when absent (the operator's CLI). */
  domain?: string;
  search?: string;
  page?: number;
  size?: number;
}

export type AuditEntry = typeof auditLog.$inferSelect;

/** A page of entries, newest first, with the total matching. */
export async function listAudit(db: Db, q: AuditQuery): Promise<{ total: number; entries: AuditEntry[] }> {
  const size = Math.min(Math.max(q.size ?? 50, 1), 500);
  const page = clampPage(q.page);
  const search = (q.search ?? "").trim().toLowerCase();
  const pattern = containsPattern(search);
  const whereSql = and(
    q.domain !== undefined ? eq(auditLog.domain, q.domain) : undefined,
    search ? sql`${auditLog.searchText} LIKE ${pattern} ESCAPE '\\'` : undefined,
  );
  const [counted] = await db
    .select({ n: sql<number>`count(*)` })
    .from(auditLog)
    .where(whereSql);
  const total = Number(counted!.n);
  const entries = await db
    .select()
    .from(auditLog)
    .where(whereSql)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(size)
    .offset(page * size);
  return { total, entries };
}

/** Housekeeping: deletes entries older than `days` days; answers how many went. */
export async function trimAudit(db: Db, days: number, now = Date.now()): Promise<number> {
  if (!(days > 0)) return 0;
  return withTransaction(db, async (tx) =>
    changedRows(tx, await tx.delete(auditLog).where(lt(auditLog.at, now - days * 86_400_000))),
  );
}

/** Entries since `since` (ms), for tests and the CLI's --since. */
export const auditSince = (db: Db, since: number) =>
  db.select().from(auditLog).where(gte(auditLog.at, since)).orderBy(desc(auditLog.id)).execute();
