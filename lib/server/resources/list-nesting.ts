import "server-only";
// Nested lists are refused: a list of this server gets nothing another list of this server sends it (the copies come
// from the sending list's bounce address, which the receiving list discards: docs/lists.md, "Loops"). So a list's
// subscriber, and a moderated list's replyto_email with replyto_catchall 1, may not lead to a list. "Leads to a list"
// is what the policy service follows (lib/mailserver/policy/destination.ts, listsReachedBy): the address is a list,
// or its alias, the domain's catchall or a forward-only account's forwards reach one, through any number of such
// steps. An account that keeps a copy is a mailbox and ends the walk. Only the domains of the list's customer are
// looked into: another customer's addresses are taken as another server's, so the answer tells nothing about them
// (contract §9, as alias targets).
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, aliases, domains, mailingLists, type DomainRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { listsReachedBy } from "@/lib/mailserver/policy/destination";

/** Addresses per IN (...) of the bulk look-ups. */
const CHUNK = 1000;
/** The refused addresses an error names at most. */
export const MAX_NAMED = 10;

export interface NestedAddress {
  address: string;
  /** The first list it leads to. */
  list: string;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1);

async function inChunks<T>(values: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(...(await read(values.slice(i, i + CHUNK))));
  return out;
}

/**
 * Which of `addresses` (lowercase, trimmed: as the schemas leave them) lead to a list of this server, in their
 * order, each with the first list reached. Most addresses are settled by a few bulk look-ups (another server's
 * address, an account that keeps its mail, an address nothing takes); only the rest (aliases, lists, forward-only
 * accounts) are walked one by one, and the addresses a catchall of type 1 or 2 takes by one walk of its address.
 * Call it inside the write's transaction: it reads the accounts, aliases, lists and catchalls the answer depends on.
 */
export async function nestedAddresses(db: Db, domain: DomainRow, addresses: string[]): Promise<NestedAddress[]> {
  if (addresses.length === 0) return [];
  const own = await db
    .select({ name: domains.name, catchallType: domains.catchallType, catchallAddress: domains.catchallAddress })
    .from(domains)
    .where(domain.customerId === null ? eq(domains.id, domain.id) : eq(domains.customerId, domain.customerId));
  const catchall = new Map(own.map((d) => [d.name, d.catchallType !== 0 && d.catchallAddress !== ""]));
  // Types 1 and 2 take every address nothing else holds to one address: walked once for all of them.
  const catchallTarget = new Map(
    own
      .filter((d) => (d.catchallType === 1 || d.catchallType === 2) && d.catchallAddress !== "")
      .map((d) => [d.name, d.catchallAddress.toLowerCase()]),
  );
  const candidates = [...new Set(addresses.filter((a) => catchall.has(domainOf(a))))];
  if (candidates.length === 0) return [];

  const accountRows = await inChunks(candidates, (chunk) =>
    db
      .select({
        email: accounts.email,
        keepMail: accounts.keepMail,
        blocked: accounts.blocked,
        forwards: accounts.forwards,
      })
      .from(accounts)
      .where(inArray(accounts.email, chunk)),
  );
  const aliasRows = await inChunks(candidates, (chunk) =>
    db.select({ email: aliases.email }).from(aliases).where(inArray(aliases.email, chunk)),
  );
  const listRows = await inChunks(candidates, (chunk) =>
    db.select({ email: mailingLists.email }).from(mailingLists).where(inArray(mailingLists.email, chunk)),
  );
  const mailboxes = new Set<string>();
  const forwardOnly = new Set<string>();
  for (const a of accountRows) {
    const forwards = Array.isArray(a.forwards) ? a.forwards : [];
    if (a.keepMail || a.blocked || forwards.length === 0) mailboxes.add(a.email);
    else forwardOnly.add(a.email);
  }
  const named = new Set([...aliasRows, ...listRows].map((r) => r.email));
  /** Where the walk of `a` starts, or undefined when it cannot lead to a list. */
  const walkFrom = (a: string): string | undefined => {
    if (mailboxes.has(a)) return undefined;
    // An alias, a list, a forward-only account, or a list's VERP bounce address (the list, `step` in destination.ts).
    if (forwardOnly.has(a) || named.has(a) || a.includes("-bounces+")) return a;
    // An address nothing holds goes where the catchall takes it, if anywhere.
    if (catchall.get(domainOf(a)) !== true) return undefined;
    return catchallTarget.get(domainOf(a)) ?? a;
  };
  const follows = (address: string) => catchall.has(domainOf(address));
  const walked = new Map<string, string | undefined>();
  const reached = new Map<string, string>();
  for (const a of candidates) {
    const from = walkFrom(a);
    if (from === undefined) continue;
    if (!walked.has(from)) walked.set(from, (await listsReachedBy(db, from, follows))[0]);
    const list = walked.get(from);
    if (list) reached.set(a, list);
  }
  const out: NestedAddress[] = [];
  const done = new Set<string>();
  for (const a of addresses) {
    const list = reached.get(a);
    if (list && !done.has(a)) {
      done.add(a);
      out.push({ address: a, list });
    }
  }
  return out;
}

/** Refuses (500.353 on `field`) when any of `addresses` leads to a list of this server, naming the first few. */
export async function assertNoNestedList(
  db: Db,
  domain: DomainRow,
  field: "accounts" | "replyto_email",
  addresses: string[],
): Promise<void> {
  const nested = await nestedAddresses(db, domain, addresses);
  if (nested.length === 0) return;
  throw apiError("listAddressIsList", field, {
    leads_to_list: nested.slice(0, MAX_NAMED),
    ...(nested.length > MAX_NAMED ? { count: nested.length } : {}),
  });
}
