import "server-only";
// The `aliases` field of an account: the set of alias records of its domain that point at it (contract §7).
import { effectiveLimits } from "./customers";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { aliases, type AccountRow, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { isAccountName, isReservedLocalPart } from "@/lib/schemas/common";
import { searchKey } from "./page";
import { nameHolder } from "./names";
import { removeAliasesTo } from "./aliases";
import { assertNoAliasLoop } from "./alias-loops";
import { expansionLoop } from "@/lib/mailserver/policy/destination";

/** Replaces the aliases pointing at `account` with `emails` (full addresses in the account's domain). */
/** Call inside the write's transaction, after lockDomain. */
export async function setAccountAliases(
  db: Db,
  domain: DomainRow,
  account: AccountRow,
  emails: string[],
  byAdmin: boolean,
) {
  const suffix = `@${domain.name}`;
  const names = emails.map((e) => (e.endsWith(suffix) ? e.slice(0, -suffix.length) : ""));
  const bad = emails.find((e, i) => !isAccountName(names[i]!));
  if (bad !== undefined) throw apiError("invalidAliases", "aliases", { address: bad });
  const current = (
    await db
      .select({ name: aliases.name })
      .from(aliases)
      .where(and(eq(aliases.domainId, domain.id), eq(aliases.target, account.email)))
  ).map((a) => a.name);
  const removed = current.filter((n) => !names.includes(n));
  const added = names.filter((n) => !current.includes(n));
  // Only adding counts against the owner's limit: the set sent back unchanged (or shrunk) is accepted even when
  // the administrator gave the account more than alias_limit.
  if (!byAdmin && added.length > 0 && names.length > account.aliasLimit) {
    throw apiError("invalidAliases", "aliases", { alias_limit: account.aliasLimit });
  }
  // The operators' addresses (and what certificate authorities mail to prove domain control) are the
  // administrator's to give.
  const reserved = byAdmin ? undefined : added.find(isReservedLocalPart);
  if (reserved !== undefined)
    throw apiError("invalidAliases", "aliases", { address: `${reserved}${suffix}`, reserved: true });
  if (removed.length) {
    await db.delete(aliases).where(and(eq(aliases.domainId, domain.id), inArray(aliases.name, removed)));
    // Aliases that delivered through a removed one would deliver to whoever takes its name next.
    await removeAliasesTo(
      db,
      domain,
      removed.map((n) => `${n}${suffix}`),
    );
  }
  for (const name of added) {
    const holder = await nameHolder(db, domain.id, name);
    // What holds it is the administrator's to know: an owner is refused alias and list endpoints (contract §9).
    if (holder)
      throw apiError("nameTaken", "aliases", { address: `${name}${suffix}`, ...(byAdmin ? { taken_by: holder } : {}) });
  }
  const d = await effectiveLimits(db, domain);
  if (d.aliasCount + added.length > d.aliasLimit)
    throw apiError("aliasLimitReached", "aliases", { alias_limit: d.aliasLimit });
  if (added.length) {
    await db.insert(aliases).values(
      added.map((name) => ({
        domainId: domain.id,
        name,
        email: `${name}${suffix}`,
        target: account.email,
        searchKey: searchKey(name, account.email),
      })),
    );
    // A round through a new alias passes the account: when none goes from it, one look suffices.
    if (await expansionLoop(db, account.email))
      for (const name of added) {
        const address = `${name}${suffix}`;
        await assertNoAliasLoop(db, address, "aliases", { address });
      }
  }
}
