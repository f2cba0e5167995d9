import "server-only";
// Nested lists are refused: a list of this server gets nothing another list of this server sends it (the copies come
// from the sending list's bounce address, which the receiving list discards: docs/lists.md, "Loops"). So a list's
// subscriber, moderator, and a moderated list's replyto_email with replyto_catchall 1, may not lead to a list.
// "Leads to a list" is what the policy service follows (lib/mailserver/policy/destination.ts, listsReachedByAll):
// the address is a list, or its alias, the domain's catchall or a forward-only account's forwards reach one, through
// any number of such steps. An account that keeps a copy is a mailbox and ends the walk. Only the domains of the
// list's customer are looked into: another customer's addresses are taken as another server's, so the answer tells
// nothing about them (contract §9, as alias targets).
//
// The check runs before the write's transaction, not inside it: the walk reads many rows (50,000 subscribers under a
// catchall are 50,000 addresses a hop), and the domain's write lock is to be held for milliseconds. The rule is
// advisory anyway: the reverse direction (an alias, forward or catchall created later that makes a subscriber lead
// to a list) is accepted by design, so a change racing with the check is no worse than one made just after it.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { listsReachedByAll } from "@/lib/mailserver/policy/destination";

/** The refused addresses an error names at most. */
export const MAX_NAMED = 10;

export interface NestedAddress {
  address: string;
  /**
   * The first list it leads to, named only when both the address and the list are in the list's own domain: a
   * customer's other domains are not shown to this domain's administrator (docs/customers.md).
   */
  list?: string;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);

/**
 * Which of `addresses` (lowercase, trimmed: as the schemas leave them) lead to a list of this server, in their
 * order (each once). One bulk walk for all of them (listsReachedByAll: a few chunked queries a hop). `newList`: the
 * address of a list being created, taken as a list already.
 */
export async function nestedAddresses(
  db: Db,
  domain: DomainRow,
  addresses: string[],
  newList?: string,
): Promise<NestedAddress[]> {
  if (addresses.length === 0) return [];
  const own = await db
    .select({ name: domains.name })
    .from(domains)
    .where(domain.customerId === null ? eq(domains.id, domain.id) : eq(domains.customerId, domain.customerId));
  const customers = new Set(own.map((d) => d.name));
  const follows = (address: string) => customers.has(domainOf(address));
  const candidates = [...new Set(addresses.filter(follows))];
  if (candidates.length === 0) return [];
  const reached = await listsReachedByAll(db, candidates, follows, new Set(newList ? [newList] : []));
  const out: NestedAddress[] = [];
  const done = new Set<string>();
  for (const a of addresses) {
    const list = reached.get(a)?.[0];
    if (list === undefined || done.has(a)) continue;
    done.add(a);
    const named = domainOf(a) === domain.name && domainOf(list) === domain.name;
    out.push(named ? { address: a, list } : { address: a });
  }
  return out;
}

export type NestingField = "accounts" | "moderators" | "replyto_email";

/** The 500.353 error on `field` for `nested` (at least one), naming the first few. */
export function nestedListError(field: NestingField, nested: NestedAddress[]) {
  return apiError("listAddressIsList", field, {
    leads_to_list: nested.slice(0, MAX_NAMED),
    ...(nested.length > MAX_NAMED ? { count: nested.length } : {}),
  });
}
