import "server-only";
// Path names: one name or a comma-separated list of up to 1000 (contract §3), and the per-domain namespace
// that accounts, aliases and lists share (contract §2).
import type { Db } from "@/db/client";
import { ApiError, apiError } from "@/lib/errors/api-error";
import type { ErrorKey } from "@/lib/errors/catalog";
import { isAccountName, isListName } from "@/lib/schemas/common";
import { firstWithChildren } from "@/lib/schemas/fields";
import { and, eq, inArray, sql } from "drizzle-orm";
import { withTransaction } from "@/db/transaction";
import { accounts, aliases, mailingLists } from "@/db/schema";
import { prepared } from "../store/prepared";

export const MAX_NAMES = 1000;

/** A path's name segment split: its names, and the errors of the malformed ones among several. */
export interface NameSegment {
  names: string[];
  malformed: ApiError[];
}

/** At most MAX_NAMES names, none empty or repeated: a path's segment that names records one by one. */
export const isNameList = (names: string[]) =>
  names.length <= MAX_NAMES && !names.includes("") && new Set(names).size === names.length;

/**
 * Splits and checks a path's name segment for a write to one name or several (writeNames). `kind` picks the
 * naming rule. Refuses at once a segment that is not a list of names, and one malformed name alone.
 */
export function nameSegment(raw: string, kind: "account" | "list", allowMany = true): NameSegment {
  const names = raw.split(",");
  if (names.length > MAX_NAMES || (!allowMany && names.length > 1)) {
    throw apiError("invalidNameList", "name", { max: allowMany ? MAX_NAMES : 1 });
  }
  if (!isNameList(names)) throw apiError("invalidNameList", "name");
  const [check, key]: [(s: string) => boolean, ErrorKey] =
    kind === "account" ? [isAccountName, "invalidAccountName"] : [isListName, "invalidListName"];
  const malformed = names.filter((n) => !check(n)).map((n) => new ApiError(key, { source: n }));
  if (names.length === 1 && malformed.length) throw malformed[0]!;
  return { names, malformed };
}

/** Splits and checks a path's name segment, refusing any malformed name. `kind` picks the naming rule. */
export function parseNames(raw: string, kind: "account" | "list", allowMany = true): string[] {
  const { names, malformed } = nameSegment(raw, kind, allowMany);
  if (malformed.length) throw withNameChildren(malformed);
  return names;
}

/** Thrown to roll writeNames' probe back. */
const PROBED = new Error("rolled back");

/**
 * `write` on the segment's names. Every refusal of several names has one child per failing name (contract §3): a
 * refusal of the body itself (a bad field, a domain limit) fails every name, so each gets a child naming it, while
 * the error's own `source` stays the field (§4). With malformed names among them the request fails on the first,
 * and `write` runs on the well-formed names in a transaction rolled back whatever it does, only to learn which of
 * them it refuses.
 */
export async function writeNames<T>(
  db: Db,
  { names, malformed }: NameSegment,
  write: (db: Db, names: string[]) => Promise<T>,
): Promise<T> {
  if (!malformed.length) {
    if (names.length === 1) return write(db, names);
    return write(db, names).catch((err: unknown) => {
      if (!(err instanceof ApiError)) throw err;
      if (err.byName) throw err;
      throw new ApiError(err.key, {
        source: err.source,
        attributes: err.attributes,
        children: nameFailures(err, names),
        byName: true,
      });
    });
  }
  const failures = new Map(malformed.map((e) => [e.source!, e]));
  const wellFormed = names.filter((n) => !failures.has(n));
  let refusal: unknown;
  if (wellFormed.length) {
    await withTransaction(db, async (tx) => {
      await write(tx, wellFormed).catch((err: unknown) => (refusal = err));
      throw PROBED;
    }).catch((err: unknown) => {
      if (err !== PROBED) throw err;
    });
  }
  if (refusal !== undefined && !(refusal instanceof ApiError)) throw refusal as Error;
  if (refusal instanceof ApiError) for (const e of nameFailures(refusal, wellFormed)) failures.set(e.source!, e);
  const first = malformed[0]!;
  const children = names.flatMap((n) => failures.get(n) ?? []);
  throw new ApiError(first.key, { source: first.source, children, byName: true });
}

/**
 * The failures, one per name, of a write's refusal of `names`: the names it refused (a service refusing some of
 * several names throws withNameChildren), or, when it refused the body, every name.
 */
function nameFailures(err: ApiError, names: string[]): ApiError[] {
  if (err.byName) return err.children ?? [err];
  if (names.length === 1) return [err.source === names[0] ? err : failureOfName(names[0]!, err)];
  // The body's own details (a list's bad entries, up to a megabyte) stay on the error once, not on each of 1,000 names.
  return names.map((n) => new ApiError(err.key, { source: n, attributes: { field: err.source } }));
}

/** One name's failure in a multi-name request: `source` is the name, `attributes.field` the field it was about. */
export function failureOfName(name: string, err: ApiError): ApiError {
  return new ApiError(err.key, { source: name, attributes: { field: err.source, ...err.attributes } });
}

/** The error of a multi-name request: the first failure, with one child per failing name. */
export function withNameChildren(errors: ApiError[]): ApiError {
  const first = errors[0]!;
  return new ApiError(first.key, {
    source: first.source,
    attributes: first.attributes,
    children: errors,
    byName: true,
  });
}

const byName = (table: typeof accounts | typeof aliases | typeof mailingLists) =>
  and(eq(table.domainId, sql.placeholder("domainId")), eq(table.name, sql.placeholder("name")));
const namespace = prepared((db) =>
  db
    .select({ kind: sql<string>`'account'`.as("kind") })
    .from(accounts)
    .where(byName(accounts))
    .unionAll(
      db
        .select({ kind: sql<string>`'alias'`.as("kind") })
        .from(aliases)
        .where(byName(aliases)),
    )
    .unionAll(
      db
        .select({ kind: sql<string>`'list'`.as("kind") })
        .from(mailingLists)
        .where(byName(mailingLists)),
    )
    .limit(1)
    .prepare(),
);

/** What already holds `name` in the domain, if anything. */
export async function nameHolder(db: Db, domainId: number, name: string): Promise<string | undefined> {
  return (await namespace(db).execute({ domainId, name }))[0]?.kind;
}

/** What holds each of `names` in the domain (the ones held), read in bulk: an import checks hundreds at once. */
export async function nameHolders(db: Db, domainId: number, names: string[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (const [kind, table] of [
    ["account", accounts],
    ["alias", aliases],
    ["list", mailingLists],
  ] as const) {
    for (let i = 0; i < names.length; i += 500) {
      const rows = await db
        .select({ name: table.name })
        .from(table)
        .where(and(eq(table.domainId, domainId), inArray(table.name, names.slice(i, i + 500))));
      for (const { name } of rows) if (!held.has(name)) held.set(name, kind);
    }
  }
  return held;
}

/** The names of `names` (at most MAX_NAMES; empty ones skipped) the domain holds, with what holds each. */
export async function takenNames(
  db: Db,
  domainId: number,
  names: string[],
): Promise<{ name: string; taken_by: string }[]> {
  if (names.length > MAX_NAMES) throw apiError("invalidNameList", "names", { max: MAX_NAMES });
  const out: { name: string; taken_by: string }[] = [];
  // A name no account, alias or list may have is held by none; it is not looked up (PostgreSQL's text refuses a NUL).
  const possible = names.map((n) => n.trim().toLowerCase()).filter((n) => isAccountName(n) || isListName(n));
  for (const name of new Set(possible)) {
    const holder = await nameHolder(db, domainId, name);
    if (holder) out.push({ name, taken_by: holder });
  }
  return out;
}

export async function assertNameFree(db: Db, domainId: number, name: string): Promise<void> {
  const holder = await nameHolder(db, domainId, name);
  if (holder) throw apiError("nameTaken", name, { taken_by: holder });
}

/**
 * Looks up every named record; 404.2 for a missing one, with one child per missing name when several were named.
 */
export async function findAllOrThrow<Row>(
  names: string[],
  find: (name: string) => Promise<Row | undefined>,
  resource: "account" | "alias" | "mailinglist",
): Promise<Row[]> {
  const rows: Row[] = [];
  const missing: ApiError[] = [];
  for (const name of names) {
    const row = await find(name);
    if (row) rows.push(row);
    else missing.push(apiError("recordNotFound", name, { resource }));
  }
  if (missing.length) throw names.length === 1 ? missing[0]! : withNameChildren(missing);
  return rows;
}

export { firstWithChildren };
