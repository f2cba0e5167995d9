import "server-only";
// Aliases: an address of the domain that delivers to another address (contract §2 endpoints).
import { effectiveLimits } from "./customers";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { aliases, type AliasRow, type DomainRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { aliasFields, READ_ONLY_ALIAS_FIELDS } from "@/lib/schemas/alias";
import { ALIAS_LIST_COLUMNS, ALIAS_SORT_FIELDS } from "@/lib/schemas/list-columns";
import { parseFields } from "@/lib/schemas/fields";
import { columnsSpec, readPage, parsePageQuery, searchKey } from "./page";
import { recordChange } from "./audit";
import { assertNoAliasLoop } from "./alias-loops";
import { expansionLoop } from "@/lib/mailserver/policy/destination";
import { assertNameFree, failureOfName, findAllOrThrow, nameHolder, withNameChildren } from "./names";
import { lockDomain, withTransaction } from "@/db/transaction";
import type { PageQuery } from "@/lib/schemas/page-query";
import { prepared } from "../store/prepared";

const statements = prepared((db) => ({
  byName: db
    .select()
    .from(aliases)
    .where(and(eq(aliases.domainId, sql.placeholder("domainId")), eq(aliases.name, sql.placeholder("name"))))
    .prepare(),
}));

export { toAliasRecord } from "@/lib/schemas/alias";

export async function findAlias(db: Db, domain: DomainRow, name: string): Promise<AliasRow | undefined> {
  return (await statements(db).byName.execute({ domainId: domain.id, name }))[0];
}

export async function getAliasOrThrow(db: Db, domain: DomainRow, name: string): Promise<AliasRow> {
  const row = await findAlias(db, domain, name);
  if (!row) throw apiError("recordNotFound", name, { resource: "alias" });
  return row;
}

export function listAliases(db: Db, domain: DomainRow, query: PageQuery) {
  return readPage(db, columnsSpec("aliases", ALIAS_LIST_COLUMNS, domain.name), domain.id, query);
}

/** GET aliases/<domain>'s query string, parsed (500.130 naming a bad parameter). */
export const parseAliasListQuery = (query: URLSearchParams, domain: DomainRow) =>
  parsePageQuery(query, ALIAS_SORT_FIELDS, domain.name);

/** The target from a body: required, a valid address, and not the alias itself (500.368). */
function targetOf(body: Record<string, unknown>, email: string): string {
  const { target } = parseFields(body, aliasFields, READ_ONLY_ALIAS_FIELDS);
  if (target === undefined || target === email)
    throw apiError("invalidAliasTarget", "target", target ? { target } : undefined);
  return target;
}

/**
 * A target in the alias's own domain must be delivered by something: an account, alias or list of the domain (as
 * the catchall's address must be an account); mail to it would bounce otherwise. Checked inside the write's
 * transaction, so a target deleted meanwhile is caught too. Another domain's addresses are not checked, hosted here
 * or not: its postmaster may learn what exists there, this one may not (contract §9), so they are as any address
 * elsewhere.
 */
async function assertTargetDelivers(db: Db, domain: DomainRow, target: string): Promise<void> {
  const at = target.lastIndexOf("@");
  if (target.slice(at + 1) !== domain.name) return;
  if (!(await nameHolder(db, domain.id, target.slice(0, at))))
    throw apiError("aliasTargetMissing", "target", { target });
}

export async function createAlias(
  db: Db,
  domain: DomainRow,
  name: string,
  body: Record<string, unknown>,
): Promise<AliasRow> {
  const email = `${name}@${domain.name}`;
  const target = targetOf(body, email);
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    await assertNameFree(tx, domain.id, name);
    await assertTargetDelivers(tx, domain, target);
    const d = await effectiveLimits(tx, domain);
    if (d.aliasCount + 1 > d.aliasLimit) throw apiError("aliasLimitReached", "name", { alias_limit: d.aliasLimit });
    await recordChange(tx, {
      domain: domain.name,
      action: "create",
      resource: "alias",
      names: [name],
      changes: { target: { old: null, new: target } },
    });
    const [row] = await tx
      .insert(aliases)
      .values({ domainId: domain.id, name, email, target, searchKey: searchKey(name, target) })
      .returning();
    await assertNoAliasLoop(tx, email, "target", { target });
    return row!;
  });
}

const requireAll = (db: Db, domain: DomainRow, names: string[]) =>
  findAllOrThrow(
    names,
    async (name) => (await statements(db).byName.execute({ domainId: domain.id, name }))[0],
    "alias",
  );

export async function updateAliases(
  db: Db,
  domain: DomainRow,
  names: string[],
  body: Record<string, unknown>,
): Promise<AliasRow[]> {
  const emails = names.map((n) => `${n}@${domain.name}`);
  const target = targetOf(body, "");
  const itself = names.find((_, i) => emails[i] === target);
  if (itself !== undefined) {
    const err = apiError("invalidAliasTarget", "target", { target });
    throw names.length === 1 ? err : withNameChildren([failureOfName(itself, err)]);
  }
  return withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    await assertTargetDelivers(tx, domain, target);
    const rows = await requireAll(tx, domain, names);
    const olds = [...new Set(rows.map((r) => r.target))];
    await recordChange(tx, {
      domain: domain.name,
      action: "update",
      resource: "alias",
      names,
      changes:
        olds.length === 1 && olds[0] === target
          ? {}
          : {
              target:
                olds.length === 1 ? { old: olds[0], new: target } : { old_values: olds.slice(0, 10), new: target },
            },
    });
    const updated: AliasRow[] = [];
    for (const row of rows) {
      const [next] = await tx
        .update(aliases)
        .set({ target, searchKey: searchKey(row.name, target) })
        .where(eq(aliases.id, row.id))
        .returning();
      updated.push(next!);
    }
    // A round through any of the aliases passes their one target: when none goes from it, one look suffices.
    const loops: ApiError[] = [];
    for (const row of (await expansionLoop(tx, target)) ? updated : []) {
      try {
        await assertNoAliasLoop(tx, row.email, "target", { target });
      } catch (err) {
        if (!(err instanceof ApiError) || names.length === 1) throw err;
        loops.push(failureOfName(row.name, err));
      }
    }
    if (loops.length) throw withNameChildren(loops);
    return updated;
  });
}

export async function deleteAliases(db: Db, domain: DomainRow, names: string[]): Promise<void> {
  await withTransaction(db, async (tx) => {
    await lockDomain(tx, domain.id);
    const rows = await requireAll(tx, domain, names);
    await recordChange(tx, {
      domain: domain.name,
      action: "delete",
      resource: "alias",
      names,
      changes: rows.length === 1 ? { target: { old: rows[0]!.target, new: null } } : {},
    });
    await tx.delete(aliases).where(and(eq(aliases.domainId, domain.id), inArray(aliases.name, names)));
    await removeAliasesTo(
      tx,
      domain,
      rows.map((r) => r.email),
    );
  });
}

/**
 * The domain's aliases that deliver to `emails`, then those that deliver to them, and so on: what removeAliasesTo
 * deletes when `emails` go away, so a confirmation can name it before the delete. Other domains' aliases never count.
 */
export async function aliasesReaching(
  db: Db,
  domain: DomainRow,
  emails: string[],
): Promise<{ name: string; email: string }[]> {
  const found: { name: string; email: string }[] = [];
  const seen = new Set(emails);
  for (let targets = emails; targets.length > 0;) {
    const next: string[] = [];
    for (let i = 0; i < targets.length; i += 500) {
      const rows = await db
        .select({ name: aliases.name, email: aliases.email })
        .from(aliases)
        .where(and(eq(aliases.domainId, domain.id), inArray(aliases.target, targets.slice(i, i + 500))));
      for (const alias of rows) {
        if (seen.has(alias.email)) continue;
        seen.add(alias.email);
        found.push(alias);
        next.push(alias.email);
      }
    }
    targets = next;
  }
  return found;
}

/**
 * Removes the domain's aliases that deliver to `emails` (addresses that are going away), transitively (aliasesReaching).
 * An alias left pointing at a freed address would deliver to whoever takes the name next: contract §9 says so for a
 * deleted account, and the same holds for a deleted list or alias. Call inside the write's transaction, after
 * lockDomain; the removal is audited.
 */
export async function removeAliasesTo(tx: Db, domain: DomainRow, emails: string[]): Promise<void> {
  const removed = (await aliasesReaching(tx, domain, emails)).map((a) => a.name);
  for (let i = 0; i < removed.length; i += 500) {
    await tx
      .delete(aliases)
      .where(and(eq(aliases.domainId, domain.id), inArray(aliases.name, removed.slice(i, i + 500))));
  }
  if (removed.length)
    await recordChange(tx, { domain: domain.name, action: "delete", resource: "alias", names: removed });
}
