import "server-only";
// Path names: one name or a comma-separated list of up to 1000 (contract §3), and the per-domain namespace
// that accounts, aliases and lists share (contract §2).
import type { Db } from "@/db/client";
import { ApiError, apiError } from "@/lib/errors/api-error";
import type { ErrorKey } from "@/lib/errors/catalog";
import { isAccountName, isListName } from "@/lib/schemas/common";
import { firstWithChildren } from "@/lib/schemas/fields";
import { prepared } from "../store/prepared";

export const MAX_NAMES = 1000;

/** Splits and checks a path's name segment. `kind` picks the naming rule. */
export function parseNames(raw: string, kind: "account" | "list", allowMany = true): string[] {
  const names = raw.split(",");
  if (names.length > MAX_NAMES || (!allowMany && names.length > 1)) {
    throw apiError("invalidNameList", "name", { max: allowMany ? MAX_NAMES : 1 });
  }
  if (names.some((n) => n === "") || new Set(names).size !== names.length) throw apiError("invalidNameList", "name");
  const [check, key]: [(s: string) => boolean, ErrorKey] =
    kind === "account" ? [isAccountName, "invalidAccountName"] : [isListName, "invalidListName"];
  const bad = names.filter((n) => !check(n)).map((n) => new ApiError(key, { source: n }));
  if (bad.length) throw names.length > 1 ? withNameChildren(bad) : bad[0]!;
  return names;
}

/** The error of a multi-name request: the first failure, with one child per failing name. */
export function withNameChildren(errors: ApiError[]): ApiError {
  const first = errors[0]!;
  return new ApiError(first.key, { source: first.source, attributes: first.attributes, children: errors });
}

const namespace = prepared((db) =>
  db.$client.prepare<[number, string, number, string, number, string], { kind: string }>(
    `SELECT 'account' AS kind FROM accounts WHERE domain_id = ? AND name = ?
     UNION ALL SELECT 'alias' FROM aliases WHERE domain_id = ? AND name = ?
     UNION ALL SELECT 'list' FROM mailing_lists WHERE domain_id = ? AND name = ? LIMIT 1`,
  ),
);

/** What already holds `name` in the domain, if anything. */
export function nameHolder(db: Db, domainId: number, name: string): string | undefined {
  return namespace(db).get(domainId, name, domainId, name, domainId, name)?.kind;
}

/** The names of `names` (at most MAX_NAMES; empty ones skipped) the domain holds, with what holds each. */
export function takenNames(db: Db, domainId: number, names: string[]): { name: string; taken_by: string }[] {
  if (names.length > MAX_NAMES) throw apiError("invalidNameList", "names", { max: MAX_NAMES });
  const out: { name: string; taken_by: string }[] = [];
  for (const name of new Set(names.map((n) => n.trim().toLowerCase()).filter(Boolean))) {
    const holder = nameHolder(db, domainId, name);
    if (holder) out.push({ name, taken_by: holder });
  }
  return out;
}

export function assertNameFree(db: Db, domainId: number, name: string): void {
  const holder = nameHolder(db, domainId, name);
  if (holder) throw apiError("nameTaken", name, { taken_by: holder });
}

/**
 * Looks up every named record; 404.2 for a missing one, with one child per missing name when several were named.
 */
export function findAllOrThrow<Row>(
  names: string[],
  find: (name: string) => Row | undefined,
  resource: "account" | "alias" | "mailinglist",
): Row[] {
  const rows: Row[] = [];
  const missing: ApiError[] = [];
  for (const name of names) {
    const row = find(name);
    if (row) rows.push(row);
    else missing.push(apiError("recordNotFound", name, { resource }));
  }
  if (missing.length) throw names.length === 1 ? missing[0]! : withNameChildren(missing);
  return rows;
}

export { firstWithChildren };
