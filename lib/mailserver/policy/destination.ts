// Whether mail for a hosted address leads anywhere (contract §9: an alias whose target another domain deleted "keeps
// its target; mail to it is refused like mail to any unknown address"). Postfix's own check at RCPT
// (reject_unlisted_recipient) sees only that the address has an alias or catchall entry: mail to an alias whose
// target is gone, or to a catchall's same-named address that does not exist, was accepted and then bounced to the
// sender (backscatter). The policy service asks this first and refuses such a recipient with 550 5.1.1.
// It follows the same tables Postfix's maps read (lib/mailserver/config.ts): accounts, lists and their bounce
// addresses, aliases, then the domain's catchall; written with the query builder, the same on both engines.
import { and, eq, inArray, sql, type Column } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { accounts, aliases, domains, mailingLists } from "@/db/schema";

/** More aliases than this in a row is a loop (or as good as one): nothing is delivered. */
const MAX_HOPS = 10;

type Step =
  | { kind: "elsewhere" }
  | { kind: "account" }
  | { kind: "list" }
  | { kind: "next"; address: string; via: "alias" | "catchall" }
  | { kind: "nothing" };

/** One step of Postfix's resolution of `address`. */
async function step(db: Db, address: string): Promise<Step> {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  const [domain] = await db
    .select({ id: domains.id, catchallType: domains.catchallType, catchallAddress: domains.catchallAddress })
    .from(domains)
    .where(eq(domains.name, address.slice(at + 1)))
    .limit(1);
  if (!domain) return { kind: "elsewhere" };
  if ((await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, address)).limit(1)).length)
    return { kind: "account" };
  // A list's address, or its VERP bounce address <name>-bounces+<signature>=<user>=<host> (the list service's; the
  // signature is checked before, lib/lists/bounce-address.ts).
  // As Postfix's list tables take them (lib/mailserver/config.ts): a user and a host around an "=".
  const bounces = local.indexOf("-bounces+");
  const verp = bounces > 0 && /^.+=.+$/s.test(local.slice(bounces + "-bounces+".length));
  const listName = verp ? local.slice(0, bounces) : local;
  const list = await db
    .select({ id: mailingLists.id })
    .from(mailingLists)
    .where(and(eq(mailingLists.domainId, domain.id), eq(mailingLists.name, listName)))
    .limit(1);
  if (list.length) return { kind: "list" };
  const [alias] = await db.select({ target: aliases.target }).from(aliases).where(eq(aliases.email, address)).limit(1);
  if (alias) return { kind: "next", address: alias.target.toLowerCase(), via: "alias" };
  if ((domain.catchallType === 1 || domain.catchallType === 2) && domain.catchallAddress)
    return { kind: "next", address: domain.catchallAddress.toLowerCase(), via: "catchall" };
  if (domain.catchallType === 3 && domain.catchallAddress)
    return { kind: "next", address: `${local}@${domain.catchallAddress.toLowerCase()}`, via: "catchall" };
  return { kind: "nothing" };
}

/**
 * True when `address` is itself a hosted account, alias or list (or a list's VERP bounce address), not an address
 * only a catchall takes: an account or alias may be named like an SRS address (`srs0-archive`, ACCOUNT_NAME_RE).
 */
export async function isHostedName(db: Db, address: string): Promise<boolean> {
  const s = await step(db, address);
  return s.kind === "account" || s.kind === "list" || (s.kind === "next" && s.via === "alias");
}

/** True when `address` is in a hosted domain and nothing there (no account, alias, list or catchall takes it). */
export async function isNothingHere(db: Db, address: string): Promise<boolean> {
  return (await step(db, address)).kind === "nothing";
}

/**
 * True when `recipient` (an address of a hosted domain) is an alias or reaches the catchall, and what that leads to
 * ends at an address of a domain hosted here that is nothing there, or goes round in a loop. False when it reaches
 * an account, a list or another server's address, and when the recipient itself is nothing (Postfix refuses that).
 */
export async function leadsNowhere(db: Db, recipient: string): Promise<boolean> {
  return (await resolve(db, recipient)).kind === "nowhere";
}

/**
 * Where the recipient's chain of aliases and catchalls ends: "direct" when the recipient itself is an account, list
 * or nothing (no chain), else the hosted account it reaches, "other" for a list or another server's address, or
 * "nowhere". Aliases have one target each, so a chain reaches at most one account.
 */
export async function resolve(
  db: Db,
  recipient: string,
): Promise<{ kind: "direct" } | { kind: "account"; address: string } | { kind: "other" } | { kind: "nowhere" }> {
  const first = await step(db, recipient);
  if (first.kind !== "next") return { kind: "direct" };
  let address = first.address;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const s = await step(db, address);
    if (s.kind === "account") return { kind: "account", address };
    if (s.kind === "elsewhere" || s.kind === "list") return { kind: "other" };
    if (s.kind === "nothing") return { kind: "nowhere" };
    address = s.address;
  }
  return { kind: "nowhere" };
}

/**
 * The forwards an account's Sieve script sends to (db/sieve-scripts-view.ts): all but those that lead straight back
 * to the account, its own address or an alias of it, which the script leaves out. When every forward does, they are
 * all kept, so that the expansion goes round (expansionLoops): the script forwards nothing, and with the
 * autoresponder on a forward-only account's script discards the message.
 */
async function forwardsSent(db: Db, address: string, stored: unknown): Promise<string[]> {
  const forwards = Array.isArray(stored) ? stored.map((f) => String(f).toLowerCase()) : [];
  const others = forwards.filter((f) => f !== address);
  if (!others.length) return forwards;
  const own = await db
    .select({ email: aliases.email })
    .from(aliases)
    .where(and(eq(aliases.target, address), inArray(aliases.email, others)));
  const sent = others.filter((f) => !own.some((a) => a.email.toLowerCase() === f));
  return sent.length ? sent : forwards;
}

/**
 * What an account does with a message (db/sieve-scripts-view.ts): it keeps it unless it forwards without keep_mail,
 * and a blocked one keeps everything (its forwards are suspended); `forwards` are the addresses it sends it on to.
 */
async function deliveryOf(db: Db, address: string): Promise<{ keeps: boolean; forwards: string[] }> {
  const [account] = await db
    .select({ keepMail: accounts.keepMail, blocked: accounts.blocked, forwards: accounts.forwards })
    .from(accounts)
    .where(eq(accounts.email, address))
    .limit(1);
  if (!account || account.blocked) return { keeps: true, forwards: [] };
  const forwards = await forwardsSent(db, address, account.forwards);
  return { keeps: Boolean(account.keepMail) || forwards.length === 0, forwards };
}

/**
 * The hosted mailboxes a message to `address` is stored in, as Postfix expands it through mail_alias_map and the
 * accounts' Sieve scripts forward it (db/sieve-scripts-view.ts): an account keeps a copy unless it forwards without
 * keep_mail (a blocked account keeps everything: its forwards are suspended), its forwards are followed, and so are
 * aliases and the catchall. A forward-only account is not one of them, whatever its quota, except, once the
 * message's score is known (`keepsAsSpam`, at the end of DATA), when its spam filter keeps this message in its Spam
 * folder instead of forwarding it. An account that keeps a copy has its forwards followed whatever the score (the
 * stricter answer: spam its "move" rule keeps is not forwarded, but its forwards' room still counts). Lists and
 * other servers' addresses store nothing here.
 *
 * `drops` (the sender's black-list refusal by an account's own and its domain's settings, the white list beating
 * it) is asked about each account a forward reaches (through aliases and the catchall too): its spam script discards
 * such a message first of all (`discard; stop;`), so that account stores nothing and forwards nothing. Not asked about
 * the account the recipient itself leads to, whose black list the caller checked already: an account recipient with
 * no forwards costs no query more. `allDropped` is true when every place the message reaches is such an account
 * (at least one): no list, another server's address, address leading nowhere or account that takes it.
 */
export async function deliveries(
  db: Db,
  address: string,
  o: {
    keepsAsSpam?: (forwardOnly: string) => Promise<boolean>;
    drops?: (account: string) => Promise<boolean>;
  } = {},
): Promise<{ mailboxes: string[]; allDropped: boolean }> {
  const found = new Set<string>();
  const seen = new Set<string>();
  let dropped = false;
  let taken = false;
  const visit = async (addr: string, depth: number, forwarded: boolean): Promise<void> => {
    if (depth > MAX_HOPS) {
      taken = true;
      return;
    }
    if (seen.has(addr)) return;
    seen.add(addr);
    const s = await step(db, addr);
    if (s.kind === "next") return visit(s.address, depth + 1, forwarded);
    if (s.kind !== "account") {
      taken = true;
      return;
    }
    if (forwarded && o.drops && (await o.drops(addr))) {
      dropped = true;
      return;
    }
    const { keeps, forwards } = await deliveryOf(db, addr);
    if (keeps) {
      found.add(addr);
      taken = true;
    } else if (o.keepsAsSpam && (await o.keepsAsSpam(addr))) {
      found.add(addr);
      taken = true;
      return; // kept, not forwarded
    }
    for (const f of forwards) await visit(f, depth + 1, true);
  };
  await visit(address.toLowerCase(), 0, false);
  return { mailboxes: [...found], allDropped: dropped && !taken };
}

/**
 * The lists a message to `recipient` reaches, when lists are all it reaches: the recipient is a list, or its aliases,
 * catchall and forward-only accounts' forwards (followed as `deliveries` follows them) end at lists and nowhere
 * else. Undefined when any of it is stored in a mailbox here (a forward-only account that keeps this message as spam,
 * `keepsAsSpam`, stores it) or goes to another server, and when it reaches no list. The policy service judges such a
 * message as the list service would, while the sender is connected: the list service only meets it after Postfix
 * accepted it (docs/lists.md, "Who may post").
 */
export async function onlyListsReached(
  db: Db,
  recipient: string,
  keepsAsSpam?: (forwardOnly: string) => Promise<boolean>,
): Promise<string[] | undefined> {
  const start = recipient.toLowerCase();
  const graph = await resolveGraph(db, [start], () => true);
  const { lists, elsewhere, forwardOnly } = walkToLists(graph, start, { stopElsewhere: true });
  if (elsewhere || lists.length === 0) return undefined;
  // A forward-only account that keeps this message in its Spam folder stores it here (and forwards nothing): not
  // only lists. Asked once the rest is known to be lists alone, of the accounts the walk went through.
  if (keepsAsSpam) for (const a of forwardOnly) if (await keepsAsSpam(a)) return undefined;
  return lists;
}

/**
 * The lists of this server a message to `address` is handed to: the address itself when it is a list (or a list's
 * VERP bounce address), else the lists its aliases, catchall and forward-only accounts' forwards reach, followed as
 * `onlyListsReached` follows them. An account that keeps a copy ends that branch: it stores the message, and what its
 * owner forwards on is the owner's. `follows(address)` false: that address is not followed, as if it were another
 * server's (the API's check of a list's subscribers, lib/server/resources/list-nesting.ts, looks only into the
 * domains of the list's customer).
 */
export async function listsReachedBy(
  db: Db,
  address: string,
  follows: (address: string) => boolean = () => true,
): Promise<string[]> {
  const start = address.toLowerCase();
  return walkToLists(await resolveGraph(db, [start], follows), start, { stopElsewhere: false }).lists;
}

/**
 * Another server's address that Postfix itself sends a message for `recipient` on to: the end of its chain of aliases
 * and catchalls (at least one step) when that is an address of a domain not hosted here. Undefined for an account, a
 * list, an address leading nowhere and another server's address written directly (a signed-in sender's own mail):
 * what a hosted account forwards is its spam script's affair (db/sieve-scripts-view.ts).
 */
export async function aliasLeadsOutside(db: Db, recipient: string): Promise<string | undefined> {
  const first = await step(db, recipient.toLowerCase());
  if (first.kind !== "next") return undefined;
  let address = first.address;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const s = await step(db, address);
    if (s.kind === "elsewhere") return address;
    if (s.kind !== "next") return undefined;
    address = s.address;
  }
  return undefined;
}

/**
 * Another server's address that a forward-only account's spam script would redirect a message for `recipient` to,
 * the account reached directly or through aliases, the catchall and further forward-only accounts, none of which
 * keeps a copy: an account that keeps one (keep_mail, blocked, or `keepsAsSpam` says its filter keeps this message)
 * ends that branch, since its own script holds back what it would send outside (db/sieve-scripts-view.ts). Undefined
 * when no forward-only account on the way forwards outside (an alias's own chain is `aliasLeadsOutside`'s).
 */
export async function forwardLeadsOutside(
  db: Db,
  recipient: string,
  keepsAsSpam?: (forwardOnly: string) => Promise<boolean>,
): Promise<string | undefined> {
  const seen = new Set<string>();
  const visit = async (addr: string, depth: number, forwarded: boolean): Promise<string | undefined> => {
    if (depth > MAX_HOPS || seen.has(addr)) return undefined;
    seen.add(addr);
    const s = await step(db, addr);
    if (s.kind === "elsewhere") return forwarded ? addr : undefined;
    if (s.kind === "next") return visit(s.address, depth + 1, forwarded);
    if (s.kind !== "account") return undefined;
    const { keeps, forwards } = await deliveryOf(db, addr);
    if (keeps || (keepsAsSpam && (await keepsAsSpam(addr)))) return undefined;
    for (const f of forwards) {
      const outside = await visit(f, depth + 1, true);
      if (outside) return outside;
    }
    return undefined;
  };
  return visit(recipient.toLowerCase(), 0, false);
}

/**
 * The lists a message to `recipient` is handed to, followed as `onlyListsReached` follows them (aliases, catchalls,
 * forward-only accounts' forwards unless `keepsAsSpam` says the account keeps this message) but whatever else the
 * message reaches besides.
 */
export async function listsAMessageReaches(
  db: Db,
  recipient: string,
  keepsAsSpam?: (forwardOnly: string) => Promise<boolean>,
): Promise<string[]> {
  // One message, a few hops: step by step (listsReachedByAll resolves many addresses at once for the API's check).
  const lists = new Set<string>();
  const seen = new Set<string>();
  const visit = async (addr: string, depth: number): Promise<void> => {
    if (depth > MAX_HOPS || seen.has(addr)) return;
    seen.add(addr);
    const s = await step(db, addr);
    if (s.kind === "list") lists.add(addr);
    else if (s.kind === "next") await visit(s.address, depth + 1);
    else if (s.kind === "account") {
      const { keeps, forwards } = await deliveryOf(db, addr);
      // Kept in a mailbox here, or in its Spam folder and not forwarded: its forwards get nothing of it from here.
      if (keeps || (keepsAsSpam && (await keepsAsSpam(addr)))) return;
      for (const f of forwards) await visit(f, depth + 1);
    }
  };
  await visit(recipient.toLowerCase(), 0);
  return [...lists];
}

/**
 * `listsReachedBy` for many addresses at once (lowercase): each with the lists it reaches, by their own address (a
 * list's VERP bounce address counts as its list), for those that reach any. The places are looked up hop by hop,
 * each hop's addresses in a few chunked queries, so 50,000 addresses cost a few dozen queries, not 8 each.
 * `lists`: addresses taken as lists though not in the table yet (a list being created).
 */
export async function listsReachedByAll(
  db: Db,
  addresses: string[],
  follows: (address: string) => boolean = () => true,
  lists: ReadonlySet<string> = new Set(),
): Promise<Map<string, string[]>> {
  const graph = await resolveGraph(db, addresses, follows, lists);
  const out = new Map<string, string[]>();
  for (const a of new Set(addresses)) {
    // Most addresses end, through a few aliases or catchalls at most, at a place that is no list and forwards
    // nothing (another server's, nothing, a mailbox): settled without the walk's bookkeeping.
    let place = graph.get(a);
    for (let hop = 0; place?.kind === "next" && hop < MAX_HOPS; hop++) place = graph.get(place.address);
    if (!place || place.kind === "elsewhere" || place.kind === "nothing" || (place.kind === "account" && place.keeps))
      continue;
    const reached = walkToLists(graph, a, { stopElsewhere: false, listAddress: true }).lists;
    if (reached.length) out.set(a, reached);
  }
  return out;
}

/** One place of the walk, as `step` and `deliveryOf` see it; `target` is an alias's stored target. */
type Place =
  | { kind: "elsewhere" }
  | { kind: "nothing" }
  | { kind: "list"; list: string }
  | { kind: "next"; address: string; target?: string }
  | { kind: "account"; keeps: boolean; forwards: string[] };

/** Addresses per look-up of the bulk walk: one JSON parameter each, so no limit on bound variables is near. */
const CHUNK = 10_000;

async function inChunks<T>(values: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += CHUNK) out.push(...(await read(values.slice(i, i + CHUNK))));
  return out;
}

/** `column IN (values)` with the values as one JSON array parameter (thousands of bound variables build slowly). */
const inJson = (db: Db, column: Column, values: string[]) =>
  inArray(column, sql`(SELECT j.value FROM ${dialectOf(db).jsonArrayRows(sql`${JSON.stringify(values)}`)} j)`);

/**
 * What every address reachable from `starts` is (up to MAX_HOPS hops), looked up a hop at a time: each hop's new
 * addresses with one chunked query each of domains, accounts, lists and aliases, in `step`'s order (an account, then
 * a list or its VERP bounce address, then an alias, then the domain's catchall).
 */
async function resolveGraph(
  db: Db,
  starts: string[],
  follows: (address: string) => boolean,
  extraLists: ReadonlySet<string> = new Set(),
): Promise<Map<string, Place>> {
  type DomainRow = { id: number; catchallType: number; catchallAddress: string; lists?: Set<string> };
  const graph = new Map<string, Place>();
  const domainRows = new Map<string, DomainRow | null>();
  let frontier = [...new Set(starts)];
  for (let hop = 0; hop <= MAX_HOPS + 1 && frontier.length; hop++) {
    const followed: string[] = [];
    for (const a of frontier) {
      if (graph.has(a)) continue;
      if (follows(a)) followed.push(a);
      else graph.set(a, { kind: "elsewhere" });
    }
    frontier = [];
    const domainOf = (a: string) => a.slice(a.lastIndexOf("@") + 1);
    const newDomains = [...new Set(followed.map(domainOf))].filter((d) => !domainRows.has(d));
    for (const d of newDomains) domainRows.set(d, null);
    for (const row of await inChunks(newDomains, (chunk) =>
      db
        .select({
          name: domains.name,
          id: domains.id,
          catchallType: domains.catchallType,
          catchallAddress: domains.catchallAddress,
        })
        .from(domains)
        .where(inJson(db, domains.name, chunk)),
    ))
      domainRows.set(row.name, row);
    const hosted: string[] = [];
    const domainOfHosted: DomainRow[] = [];
    for (const a of followed) {
      const d = domainRows.get(domainOf(a));
      if (d) {
        hosted.push(a);
        domainOfHosted.push(d);
      } else graph.set(a, { kind: "elsewhere" });
    }
    if (!hosted.length) continue;
    const accountRows = await inChunks(hosted, (chunk) =>
      db
        .select({
          email: accounts.email,
          keepMail: accounts.keepMail,
          blocked: accounts.blocked,
          forwards: accounts.forwards,
        })
        .from(accounts)
        .where(inJson(db, accounts.email, chunk)),
    );
    const accountOf = new Map(accountRows.map((r) => [r.email, r]));
    // The lists of the hop's domains (a domain has few): read whole rather than looked up by each address.
    const unread = [...new Set(domainOfHosted.filter((d) => !d.lists))];
    for (const d of unread) d.lists = new Set();
    const byId = new Map(unread.map((d) => [d.id, d]));
    const ids = [...byId.keys()];
    for (let k = 0; k < ids.length; k += 500) {
      const rows = await db
        .select({ name: mailingLists.name, domainId: mailingLists.domainId })
        .from(mailingLists)
        .where(inArray(mailingLists.domainId, ids.slice(k, k + 500)));
      for (const r of rows) byId.get(r.domainId)!.lists!.add(r.name);
    }
    // A list's address, or its VERP bounce address (as `step` takes them): the list's own address, else undefined.
    const listOf = (a: string, d: DomainRow): string | undefined => {
      if (!d.lists!.size && !extraLists.size) return undefined;
      const at = a.lastIndexOf("@");
      let local = a.slice(0, at);
      const bounces = local.indexOf("-bounces+");
      if (bounces > 0 && /^.+=.+$/s.test(local.slice(bounces + "-bounces+".length))) local = local.slice(0, bounces);
      const address = `${local}@${a.slice(at + 1)}`;
      return d.lists!.has(local) || extraLists.has(address) ? address : undefined;
    };
    const lists = new Map<string, string>();
    const notLists: string[] = [];
    for (const [i, a] of hosted.entries()) {
      if (accountOf.has(a)) continue;
      const list = listOf(a, domainOfHosted[i]!);
      if (list === undefined) notLists.push(a);
      else lists.set(a, list);
    }
    const aliasRows = await inChunks(notLists, (chunk) =>
      db
        .select({ email: aliases.email, target: aliases.target })
        .from(aliases)
        .where(inJson(db, aliases.email, chunk)),
    );
    const aliasOf = new Map(aliasRows.map((r) => [r.email, r.target]));
    const next = (a: string, place: Place) => {
      graph.set(a, place);
      if (place.kind === "next") frontier.push(place.address);
      if (place.kind === "account") frontier.push(...place.forwards);
    };
    for (const [i, a] of hosted.entries()) {
      const account = accountOf.get(a);
      if (account) {
        const forwards = Array.isArray(account.forwards) ? account.forwards.map((f) => String(f).toLowerCase()) : [];
        if (account.blocked) next(a, { kind: "account", keeps: true, forwards: [] });
        else next(a, { kind: "account", keeps: Boolean(account.keepMail) || forwards.length === 0, forwards });
        continue;
      }
      const list = lists.get(a);
      if (list !== undefined) {
        graph.set(a, { kind: "list", list });
        continue;
      }
      const target = aliasOf.get(a);
      if (target !== undefined) {
        next(a, { kind: "next", address: target.toLowerCase(), target });
        continue;
      }
      const domain = domainOfHosted[i]!;
      if ((domain.catchallType === 1 || domain.catchallType === 2) && domain.catchallAddress)
        next(a, { kind: "next", address: domain.catchallAddress.toLowerCase() });
      else if (domain.catchallType === 3 && domain.catchallAddress)
        next(a, { kind: "next", address: `${a.slice(0, a.lastIndexOf("@"))}@${domain.catchallAddress.toLowerCase()}` });
      else graph.set(a, { kind: "nothing" });
    }
  }
  return graph;
}

/**
 * The forwards an account's Sieve script sends to, as `forwardsSent` works them out, from the looked-up places:
 * all but its own address and its own aliases, unless that leaves none.
 */
function forwardsSentOf(graph: Map<string, Place>, address: string, forwards: string[]): string[] {
  const others = forwards.filter((f) => f !== address);
  if (!others.length) return forwards;
  const sent = others.filter((f) => {
    const p = graph.get(f);
    return !(p?.kind === "next" && p.target === address);
  });
  return sent.length ? sent : forwards;
}

/**
 * The walk of onlyListsReached and listsReachedBy over the looked-up places; `stopElsewhere`: stop at the first place
 * that is not a list; `listAddress`: name a list reached by its VERP bounce address by the list's own address.
 * `forwardOnly`: the forward-only accounts it went through (their forwards followed).
 */
function walkToLists(
  graph: Map<string, Place>,
  recipient: string,
  o: { stopElsewhere: boolean; listAddress?: boolean },
): { lists: string[]; elsewhere: boolean; forwardOnly: string[] } {
  const lists = new Set<string>();
  const seen = new Set<string>();
  const forwardOnly: string[] = [];
  let elsewhere = false;
  const visit = (addr: string, depth: number): void => {
    if ((elsewhere && o.stopElsewhere) || depth > MAX_HOPS || seen.has(addr)) return;
    seen.add(addr);
    const s = graph.get(addr);
    // Not looked up: past the hops the look-ups went (the walk's depth limit ends it first).
    if (!s) return;
    if (s.kind === "list") lists.add(o.listAddress ? s.list : addr);
    else if (s.kind === "next") visit(s.address, depth + 1);
    else if (s.kind === "elsewhere") elsewhere = true;
    else if (s.kind === "account") {
      // Kept in a mailbox here is not only lists.
      if (s.keeps) elsewhere = true;
      else {
        forwardOnly.push(addr);
        for (const f of forwardsSentOf(graph, addr, s.forwards)) visit(f, depth + 1);
      }
    }
  };
  visit(recipient, 0);
  return { lists: [...lists], elsewhere, forwardOnly };
}

/** Postfix's virtual_alias_recursion_limit and virtual_alias_expansion_limit (both 1000 by default). */
const POSTFIX_RECURSION_LIMIT = 1000;
const POSTFIX_EXPANSION_LIMIT = 1000;

/**
 * Where mail for `address` goes next, in the order of Postfix's virtual_alias_maps (lib/mailserver/config.ts: the
 * view mail_alias_map, then the list table, then the domain's catchall key): an alias's target; an account's own
 * address when it keeps mail (or is blocked, or has no forwards) and then its forwards unless it is blocked; a
 * list's address maps to itself. Undefined when no table has the address. Every account maps to itself alone in
 * the view and its Sieve script forwards (db/sieve-scripts-view.ts); the forwards are followed here as Postfix
 * followed them, so a loop through them is still refused at RCPT. A forward-only account stores nothing, so here it
 * maps to its forwards alone: a round through it stores the message nowhere.
 */
async function aliasMapLookup(db: Db, address: string): Promise<string[] | undefined> {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at);
  const [domain] = await db
    .select({ id: domains.id, catchallType: domains.catchallType, catchallAddress: domains.catchallAddress })
    .from(domains)
    .where(eq(domains.name, address.slice(at + 1)))
    .limit(1);
  if (!domain) return undefined;
  const [alias] = await db.select({ target: aliases.target }).from(aliases).where(eq(aliases.email, address)).limit(1);
  if (alias) return [alias.target.toLowerCase()];
  const [account] = await db
    .select({
      keepMail: accounts.keepMail,
      blocked: accounts.blocked,
      forwards: accounts.forwards,
    })
    .from(accounts)
    .where(eq(accounts.email, address))
    .limit(1);
  if (account) {
    const forwards = account.blocked ? [] : await forwardsSent(db, address, account.forwards);
    const keepsOwnRow = account.keepMail || account.blocked || forwards.length === 0;
    return [...(keepsOwnRow ? [address] : []), ...(account.blocked ? [] : forwards)];
  }
  const bounces = local.indexOf("-bounces+");
  const list = await db
    .select({ id: mailingLists.id })
    .from(mailingLists)
    .where(
      and(eq(mailingLists.domainId, domain.id), eq(mailingLists.name, bounces > 0 ? local.slice(0, bounces) : local)),
    )
    .limit(1);
  if (list.length) return [address];
  if ((domain.catchallType === 1 || domain.catchallType === 2) && domain.catchallAddress)
    return [domain.catchallAddress.toLowerCase()];
  if (domain.catchallType === 3 && domain.catchallAddress) return [`${local}@${domain.catchallAddress.toLowerCase()}`];
  return undefined;
}

/**
 * True when the expansion of `recipient` through aliases, forwards and catchalls would never end, followed as
 * Postfix follows virtual aliases (cleanup_map1n.c): each address until a table has no entry for it or it is one
 * that maps to itself (an account that keeps a copy, a list), a round without such an address being a loop
 * (Postfix gave up after 1,000 steps with `451 4.6.0 Alias expansion error` for every recipient of the message; a
 * forward-only account's Sieve forwards now end it after one round, leaving the message in its unread inbox). So a
 * forward-only account forwarding only to its own alias, two forward-only accounts forwarding to each other, or
 * aliases pointing at each other loop; an account that keeps a copy and forwards to its alias does not (it maps to
 * itself, which ends the round: one copy is stored), nor does a forward-only account whose other forwards lead on
 * (its script leaves the one to its alias out: forwardsSent).
 */
export async function expansionLoops(db: Db, recipient: string): Promise<boolean> {
  return (await expansionLoop(db, recipient)) !== undefined;
}

/**
 * The round that makes `expansionLoops` true, the addresses in the order the expansion went through them and the
 * first of them again at the end (empty past Postfix's expansion limit, which is no round); undefined when the
 * expansion ends. The API refuses an alias whose round comes back to it (lib/server/resources/alias-loops.ts).
 */
export async function expansionLoop(db: Db, recipient: string): Promise<string[] | undefined> {
  const slots = [recipient.toLowerCase()];
  // Addresses that map to themselves (Postfix's been_here): their expansion stops there.
  const selfMapped = new Set<string>();
  const lookups = new Map<string, string[] | undefined>();
  const lookup = async (address: string) => {
    if (!lookups.has(address)) lookups.set(address, await aliasMapLookup(db, address));
    return lookups.get(address);
  };
  for (let slot = 0; slot < slots.length; slot++) {
    if (slots.length > POSTFIX_EXPANSION_LIMIT) return [];
    // The addresses this slot went through: coming back to one that does not map to itself goes round forever.
    const passed: string[] = [];
    for (;;) {
      const address = slots[slot]!;
      if (selfMapped.has(address)) break;
      const again = passed.indexOf(address);
      if (again >= 0) return [...passed.slice(again), address];
      if (passed.length >= POSTFIX_RECURSION_LIMIT) return passed;
      passed.push(address);
      const result = await lookup(address);
      if (!result?.length) break;
      if (result.includes(address)) selfMapped.add(address);
      slots[slot] = result[0]!;
      slots.push(...result.slice(1));
    }
  }
  return undefined;
}
