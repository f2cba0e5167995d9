// The per-recipient decisions Postfix asks for at RCPT TO (docs/mail-server.md, Anti-spam): an address that leads
// nowhere (destination.ts), then the black list (the white list beats it), SPF hard fail, the white list, RBL and
// greylisting, each with the recipient account's and its domain's settings read from the database at every request,
// so a change through the API applies to the next message.
import dns from "node:dns";
import net from "node:net";
import { spf } from "mailauth/lib/spf/index.js";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, mailingLists } from "@/db/schema";
import { admit } from "@/lib/lists/admission";
import { bounceParts, signedSubscriber } from "@/lib/lists/bounce-address";
import { listStore } from "@/lib/lists/store";
import { END_OF_DATA_REQUEST } from "../antispam-config";
import { awaitingRemoval } from "../removed-mailboxes";
import {
  aliasLeadsOutside,
  deliveries,
  forwardLeadsOutside,
  expansionLoops,
  isHostedName,
  isNothingHere,
  leadsNowhere,
  listsAMessageReaches,
  onlyListsReached,
  resolve,
} from "./destination";
import { mayUseSender } from "./sender-logins";
import { SendLimit } from "./send-limit";
import { SignedInSessions } from "./signed-in-sessions";
import type { GreylistStore } from "./greylist";
import { effectiveSwitch, type SpamDefaults } from "@/lib/schemas/spam";
import { FORWARDED_SPAM_HITS } from "@/db/sieve-scripts-view";

export type { SpamDefaults };

export interface PolicyOptions {
  db: Db;
  greylist: GreylistStore;
  /** Seconds a new (client, sender, recipient) must wait before its retry is accepted. */
  greylistDelayS: number;
  /** DNS blocklists asked for the client's IPv4 address, for example zen.spamhaus.org. */
  rblZones: string[];
  /** The server's defaults (SPAM_*_DEFAULT), where domain and account say -1. */
  defaults: SpamDefaults;
  /** DNS servers ("127.0.0.1:5353"); the system's when empty. */
  dnsServers?: string[];
  /** Epoch milliseconds now (tests fake the clock of greylisting and the sending limit); Date.now by default. */
  now?: () => number;
  /** Dovecot's quota-status service (Postfix's policy protocol), asked for each mailbox a message is stored in. */
  quotaStatus?: { host: string; port: number };
  /** The service's log (a blocklist refusing our queries). */
  log?: (line: string) => void;
}

/** What Postfix's policy delegation protocol sends (the attributes we use). */
export interface PolicyRequest {
  request?: string;
  protocol_state?: string;
  /** "quota" for the question Postfix asks first, for every client (postfixAntispamLines): black list, then quota. */
  policy_context?: string;
  size?: string;
  client_address?: string;
  client_port?: string;
  server_address?: string;
  server_port?: string;
  /** smtpd's id of the transaction: "<pid>.<MAIL FROM seconds>.<microseconds>.<its number in the session>", hex. */
  instance?: string;
  helo_name?: string;
  sender?: string;
  recipient?: string;
  sasl_username?: string;
  // Rspamd's request at the end of DATA (END_OF_DATA_REQUEST): every accepted recipient and the headers it needs.
  recipients?: string;
  /** The message's spam score in hundredths, as the Sieve scripts compare it. */
  centiscore?: string;
  from?: string;
  /** The SASL login of a signed-in submission ("" otherwise). */
  user?: string;
  verified?: string;
  subject?: string;
  auto_submitted?: string;
  /** The message's top-level Content-Type header ("" when it has none). */
  content_type?: string;
  list_ids?: string;
  /** The size of the message's header block in bytes. */
  header_bytes?: string;
}

export interface PolicyAnswer {
  /** The access(5) action Postfix applies: DUNNO, DEFER ..., REJECT ... */
  action: string;
  /** Which rule decided, for logs and tests. */
  rule:
    | "none"
    | "syntax"
    | "srs"
    | "list-bounce"
    | "sender"
    | "list-refused"
    | "spam-forwarded"
    | "quota"
    | "removal-pending"
    | "send-limit"
    | "password-changed"
    | "authenticated"
    | "not-hosted"
    | "no-destination"
    | "loop"
    | "white-list"
    | "black-list"
    | "spf"
    | "rbl"
    | "greylist"
    | "greylist-passed";
}

export interface Settings {
  enabled: { rbl: number; spf: number; greylist: number };
  white: string[];
  black: string[];
  greylistWhite: string[];
  spfWhite: string[];
  rblWhite: string[];
}

/** The lists as stored (string[] through the schema on both engines); anything else reads as empty. */
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x).toLowerCase()) : []);

/** The columns the decision reads, the same on domains and accounts. */
const spamColumns = (t: typeof domains | typeof accounts) => ({
  spamWhiteList: t.spamWhiteList,
  spamBlackList: t.spamBlackList,
  spamGreylistWhitelist: t.spamGreylistWhitelist,
  spamSpfWhitelist: t.spamSpfWhitelist,
  spamRblWhitelist: t.spamRblWhitelist,
  spamRblEnabled: t.spamRblEnabled,
  spamSpfEnabled: t.spamSpfEnabled,
  spamGreylistEnabled: t.spamGreylistEnabled,
});
type ListKey = "spamWhiteList" | "spamBlackList" | "spamGreylistWhitelist" | "spamSpfWhitelist" | "spamRblWhitelist";

/**
 * The settings that apply to mail for `recipient`: its account's (lists added to the domain's, switches falling back
 * to the domain's); for an alias or catchall address, those of the hosted account its chain reaches (`resolve`), as if
 * the sender had written to that account; for a list or an address leading elsewhere, the domain's own. Undefined
 * when the recipient's domain is not hosted here. Written once with the query builder: the same on both engines.
 */
export async function settingsFor(db: Db, recipient: string, defaults: SpamDefaults): Promise<Settings | undefined> {
  const hosted = await settingsOf(db, recipient, defaults);
  if (!hosted) return undefined;
  const behind = await resolve(db, recipient);
  if (behind.kind !== "account") return hosted;
  return (await settingsOf(db, behind.address, defaults)) ?? hosted;
}

/** The settings of one hosted address: its account's over its domain's, or the domain's alone. */
async function settingsOf(db: Db, recipient: string, defaults: SpamDefaults): Promise<Settings | undefined> {
  const domainName = recipient.slice(recipient.lastIndexOf("@") + 1);
  const [domain] = await db
    .select({ id: domains.id, ...spamColumns(domains) })
    .from(domains)
    .where(eq(domains.name, domainName))
    .limit(1);
  if (!domain) return undefined;
  const [account] = await db
    .select(spamColumns(accounts))
    .from(accounts)
    .where(and(eq(accounts.email, recipient), eq(accounts.domainId, domain.id)))
    .limit(1);
  const both = (key: ListKey) => [...list(domain[key]), ...(account ? list(account[key]) : [])];
  const sw = (key: "spamRblEnabled" | "spamSpfEnabled" | "spamGreylistEnabled", def: keyof SpamDefaults) =>
    effectiveSwitch(account ? Number(account[key]) : undefined, Number(domain[key]), defaults[def]);
  return {
    enabled: {
      rbl: sw("spamRblEnabled", "rbl"),
      spf: sw("spamSpfEnabled", "spf"),
      greylist: sw("spamGreylistEnabled", "greylist"),
    },
    white: both("spamWhiteList"),
    black: both("spamBlackList"),
    greylistWhite: both("spamGreylistWhitelist"),
    spfWhite: both("spamSpfWhitelist"),
    rblWhite: both("spamRblWhitelist"),
  };
}

/** A list entry is an address (matches that sender) or a domain (matches every sender of that domain). */
export function listMatches(entries: string[], sender: string): boolean {
  if (!sender) return false;
  const s = sender.toLowerCase();
  const domain = s.slice(s.lastIndexOf("@") + 1);
  return entries.some((e) => (e.includes("@") ? e === s : e === domain));
}

/** The black list's refusal of `sender` for `recipient`, unless the white list (which beats it) names the sender. */
function blackListed(s: Settings, recipient: string, sender: string): PolicyAnswer | undefined {
  if (listMatches(s.white, sender) || !listMatches(s.black, sender)) return undefined;
  return blackListRefusal(recipient, sender);
}

const blackListRefusal = (recipient: string, sender: string): PolicyAnswer => ({
  action: `REJECT 5.7.1 <${recipient}>: the recipient does not accept mail from <${sender}>`,
  rule: "black-list",
});

/**
 * Whether the spam script of the hosted `account` (db/sieve-scripts-view.ts) discards a message from `sender` that a
 * forward brought: its own and its domain's black list name the sender and their white lists do not (`blackListed`,
 * the rule the policy applies at RCPT). `deliveries` asks it about each account a forward reaches.
 */
const dropsFrom =
  (db: Db, sender: string) =>
  async (account: string): Promise<boolean> => {
    const s = await settingsOf(db, account, { rbl: 0, spf: 0, greylist: 0 });
    return !!s && !!blackListed(s, account, sender);
  };

/**
 * A recipient whose aliases and forwards go round in a loop (destination.ts, expansionLoops): Postfix would take the
 * message and then answer `451 4.6.0 Alias expansion error` at the end of DATA, for every recipient of it, and the
 * sender's server would retry for days. Refused at RCPT instead, for this recipient only, with RFC 3463's
 * "routing loop detected". Postfix writes "<address>: Recipient address rejected:" before the text.
 */
/**
 * The longest address SMTP carries (RFC 5321 4.5.3.1.3: a path of 256 octets with its angle brackets). Refused at
 * RCPT from every client: a catchall domain took local parts of any length, and 1,000 such recipients made the end of
 * DATA's request (lib/mailserver/antispam-config.ts) too long for MAX_POLICY_REQUEST, so the message went unchecked.
 */
export const MAX_ADDRESS_BYTES = 254;
const TOO_LONG: PolicyAnswer = {
  action: `501 5.1.3 the address is longer than ${MAX_ADDRESS_BYTES} bytes`,
  rule: "syntax",
};
/**
 * An SRS address (postsrsd's SRS0=/SRS1= local parts, or SRS0+/SRS0- with another SRS_SEPARATOR) is where a
 * forward's delivery reports come back, with the null sender. Anything else sent to it is refused, unless it is a
 * hosted account, alias or list named so (`srs1-archive` is a valid name): Postfix turns the address
 * back into the original sender and relays to it, so one SRS address, valid for 21 days, relayed anyone's mail to
 * that address (a helper's attacker review, in the sandbox).
 */
const SRS_ADDRESS = /^srs[01][=+-]/i;
const SRS_BOUNCES_ONLY: PolicyAnswer = {
  action: "550 5.7.1 this address takes only delivery reports",
  rule: "srs",
};
/**
 * The end of DATA's half of the SRS rule: the null sender passes RCPT, but anyone may send with it, so a message to an
 * SRS address must also look like what comes back there. Without this, anyone who had an SRS address minted for a
 * target (mail sent once with the target as a forged sender to a hosted forward) sent any text to the target from this
 * server's address for 21 days (a helper's attacker audit, in the sandbox).
 */
const SRS_REPORTS_ONLY: PolicyAnswer = {
  action: "REJECT 5.7.1 This address takes only delivery reports and automatic replies, and this message is neither",
  rule: "srs",
};

/**
 * Whether a message to an SRS address has the shape of what comes back to a forward's sender (docs/mail-server.md,
 * SRS): a report (`multipart/report`, RFC 6522: delivery status, read receipts, feedback reports), an automatic reply
 * (`Auto-Submitted` other than `no`, RFC 3834), or an old-style bounce from a mailer daemon (From MAILER-DAEMON@ or
 * postmaster@, in any MIME type: not every MTA writes RFC 3464 reports, and a lost bounce leaves the original sender
 * uninformed). Headers only, which a sender can forge: it keeps out mail sent as it is, not a spammer who dresses it
 * as a report (docs/mail-server.md, SRS).
 */
export function looksLikeReport(req: Pick<PolicyRequest, "content_type" | "auto_submitted" | "from">): boolean {
  const type = (req.content_type ?? "").trim().toLowerCase();
  if (/^multipart\/report\s*(;|$)/.test(type)) return true;
  const auto = (req.auto_submitted ?? "").trim().toLowerCase();
  if (auto && !/^no\s*(;|\(|$)/.test(auto)) return true;
  const local = (req.from ?? "").toLowerCase().split("@")[0];
  return local === "mailer-daemon" || local === "postmaster";
}

/** A signed-in user's message with the null sender that is neither a report nor an automatic reply. */
const SIGNED_IN_NULL_SENDER: PolicyAnswer = {
  action:
    "REJECT 5.7.1 A signed-in user sends with the null sender (MAIL FROM:<>) only a read receipt, a delivery report or an automatic reply",
  rule: "sender",
};

/**
 * A list's bounce address (`<list>-bounces+...`) without this server's signature (lib/lists/bounce-address.ts):
 * refused at RCPT from every client, so that nobody can send a made-up bounce that counts against a subscriber.
 */
const UNSIGNED_BOUNCE: PolicyAnswer = {
  action: "550 5.7.1 this bounce address was not given out by this list",
  rule: "list-bounce",
};

/** True when `recipient` is a hosted list's bounce address that carries no valid signature. */
async function isUnsignedListBounce(db: Db, recipient: string): Promise<boolean> {
  const parts = bounceParts(recipient);
  if (!parts) return false;
  const [list] = await db
    .select({ id: mailingLists.id })
    .from(mailingLists)
    .where(eq(mailingLists.email, parts.list))
    .limit(1);
  return !!list && !(await signedSubscriber(db, parts.list, parts.verp));
}

/** An alias or catchall whose chain ends at no mailbox here; Postfix writes "<address>: Recipient address rejected:" first. */
const NO_DESTINATION: PolicyAnswer = { action: "550 5.1.1 it leads to no mailbox here", rule: "no-destination" };

/**
 * A mailbox of an account created again under a deleted address while the previous owner's folder still waits for
 * `mailserver events` to remove it (../removed-mailboxes.ts): stored now, the message would go with that folder.
 * Deferred, so the sender's server retries once the removal is done (seconds).
 */
const BEING_EMPTIED: PolicyAnswer = {
  action: "450 4.2.1 the mailbox is being emptied after its account was deleted; try again in a few minutes",
  rule: "removal-pending",
};

const LOOP: PolicyAnswer = { action: "550 5.4.6 its aliases and forwards go round in a loop here", rule: "loop" };

/**
 * Whether the black list that applies to mail for `recipient` (settingsFor: its account's and domain's, through
 * aliases) refuses `sender`, its white list not naming it: what the policy answers 554 at RCPT. False for an address
 * of a domain not hosted here. The list service asks it before it offers a subscriber a copy (lib/lists/distribution.ts).
 */
export async function blackListRefuses(db: Db, recipient: string, sender: string): Promise<boolean> {
  const r = recipient.toLowerCase();
  // The switches' defaults play no part in the black list.
  const s = await settingsFor(db, r, { rbl: 0, spf: 0, greylist: 0 });
  return !!s && !!blackListed(s, r, sender.toLowerCase());
}

/**
 * Whether a forward-only account's spam script (db/sieve-scripts-view.ts) files a message scored `centiscore` (in
 * hundredths, as Rspamd wrote it into X-Mailadmin-Spam-Centiscore) from `sender` into its Spam folder instead of
 * forwarding it: the filter on (account and domain), rule "move", the score from spam_hits on, the sender on
 * neither the account's nor the domain's white list.
 */
async function keepsAsSpam(db: Db, address: string, centiscore: number, sender: string): Promise<boolean> {
  const [row] = await db
    .select({
      enabled: accounts.spamEnabled,
      rule: accounts.spamRule,
      hits: accounts.spamHits,
      white: accounts.spamWhiteList,
      domainEnabled: domains.spamEnabled,
      domainWhite: domains.spamWhiteList,
    })
    .from(accounts)
    .innerJoin(domains, eq(domains.id, accounts.domainId))
    .where(eq(accounts.email, address))
    .limit(1);
  if (!row || row.enabled !== 1 || row.domainEnabled !== 1 || row.rule === "tag") return false;
  if (centiscore < Math.round(Number(row.hits) * 100)) return false;
  return !listMatches([...list(row.white), ...list(row.domainWhite)], sender);
}

/**
 * A message scored as spam (`centiscore`, hundredths, from FORWARDED_SPAM_HITS on) that a recipient would send on
 * from this server: an alias (or catchall) whose chain ends at another server's address, which Postfix expands
 * without any spam script; a forward-only account (also through aliases and further forward-only accounts) that would
 * redirect it to another server's address, keeping no copy (its spam script would not send it either, and would keep
 * it in its inbox instead of refusing it); or a list (also through aliases and forward-only accounts), whose copies go
 * out DKIM-signed by its domain. Refused, for the whole message (one answer at the end of DATA), whoever sends it:
 * before, a hostile customer's aliases, forwards and open lists sent spam from the server's addresses outside
 * `send_limit`. An account that keeps a copy is not refused: it gets its copy by its own spam settings and its script
 * forwards none of it outside (db/sieve-scripts-view.ts). Undefined without a score (Rspamd did not score the message:
 * fail open).
 */
export async function spamSentOn(
  db: Db,
  recipients: string[],
  centiscore: string | undefined,
  keepsAsSpam?: (forwardOnly: string) => Promise<boolean>,
): Promise<PolicyAnswer | undefined> {
  if (centiscore === undefined || !(Number(centiscore) >= FORWARDED_SPAM_HITS * 100)) return undefined;
  const score = `${(Number(centiscore) / 100).toFixed(2)}, spam from ${FORWARDED_SPAM_HITS.toFixed(2)} on`;
  for (const rcpt of recipients) {
    if ((await aliasLeadsOutside(db, rcpt)) || (await forwardLeadsOutside(db, rcpt, keepsAsSpam)))
      return {
        action: `REJECT 5.7.1 ${rcpt} forwards to another server and this message scores as spam (${score}): spam is not forwarded outside this server`,
        rule: "spam-forwarded",
      };
    // A list's bounce address takes delivery reports, which quote what they return: not a post.
    const list = (await listsAMessageReaches(db, rcpt, keepsAsSpam)).find((address) => !bounceParts(address));
    if (list)
      return {
        action: `REJECT 5.7.1 ${rcpt === list ? `${rcpt} is a mailing list` : `${rcpt} leads to the mailing list ${list}`} and this message scores as spam (${score}): spam is not sent to a list's subscribers`,
        rule: "spam-forwarded",
      };
  }
  return undefined;
}

export class SpamPolicy {
  private readonly resolver: dns.promises.Resolver;
  private readonly sendLimit: SendLimit;
  private readonly sessions: SignedInSessions;

  constructor(private readonly o: PolicyOptions) {
    this.sendLimit = new SendLimit(o.db);
    this.sessions = new SignedInSessions(o.db);
    this.resolver = new dns.promises.Resolver({ timeout: 3000, tries: 2 });
    if (o.dnsServers?.length) this.resolver.setServers(o.dnsServers);
  }

  async decide(req: PolicyRequest): Promise<PolicyAnswer> {
    if (req.request === END_OF_DATA_REQUEST) return this.endOfData(req);
    // Asked first, for every client (logged-in users and the host's own clients too): the recipient's black list,
    // then its quota. A black list is the owner's "never from these", which a sender of this server may be as well.
    if (req.policy_context === "quota") {
      // A signed-in session that logged in before its password changed: refused at each RCPT and at the end of DATA
      // (smtpd_end_of_data_restrictions asks the same question there), before anything is counted.
      const state = req.protocol_state ?? "RCPT";
      if (req.sasl_username && (state === "RCPT" || state === "END-OF-MESSAGE")) {
        const stale = await this.signedInBeforeChange(req);
        if (stale) return stale;
      }
      if (req.protocol_state && req.protocol_state !== "RCPT") return { action: "DUNNO", rule: "none" };
      if (Buffer.byteLength(req.recipient ?? "") > MAX_ADDRESS_BYTES) return TOO_LONG;
      const recipient = (req.recipient ?? "").toLowerCase();
      if (SRS_ADDRESS.test(recipient) && (req.sender ?? "") !== "" && !(await isHostedName(this.o.db, recipient)))
        return SRS_BOUNCES_ONLY;
      if (await isUnsignedListBounce(this.o.db, recipient)) return UNSIGNED_BOUNCE;
      const s = await settingsFor(this.o.db, recipient, this.o.defaults);
      // An address that leads nowhere is refused whoever sends to it, a signed-in sender too (Postfix permits those
      // before the second question): accepted, it bounced to that sender.
      if (s && (await leadsNowhere(this.o.db, recipient))) return NO_DESTINATION;
      // Mail that would go round through aliases and forwards is refused here rather than deferred after DATA.
      if (s && (await expansionLoops(this.o.db, recipient))) return LOOP;
      const envelopeSender = (req.sender ?? "").toLowerCase();
      const refused = s && blackListed(s, recipient, envelopeSender);
      if (refused) return refused;
      // Where the message would end up, less the accounts whose black list drops it at delivery (a forward's
      // target): when that is every place, refused here as the recipient's own black list refuses it; and their
      // mailboxes' room does not count.
      const { mailboxes: stored, allDropped } = s
        ? await deliveries(this.o.db, recipient, { drops: dropsFrom(this.o.db, envelopeSender) })
        : { mailboxes: [], allDropped: false };
      if (allDropped) return blackListRefusal(recipient, envelopeSender);
      if (await awaitingRemoval(this.o.db, stored)) return BEING_EMPTIED;
      const full = await this.fullMailbox(stored, Number(req.size) || 0);
      // Postfix writes "<address>: Recipient address rejected:" before the text; an alias's account is not named.
      if (full) return { action: "552 5.2.2 Mailbox is full", rule: "quota" };
      // Last, so that only a recipient this question accepts is counted against a signed-in sender's hourly limit; nor
      // one that is nothing here, which Postfix refuses next (User unknown).
      if (req.sasl_username && !(s && (await isNothingHere(this.o.db, recipient))))
        return this.withinSendLimit(req.sasl_username.toLowerCase());
      return { action: "DUNNO", rule: "none" };
    }
    if (req.protocol_state && req.protocol_state !== "RCPT") return { action: "DUNNO", rule: "none" };
    // Authenticated submissions are the users' own mail (smtpd_recipient_restrictions permits them before us).
    if (req.sasl_username) return { action: "DUNNO", rule: "authenticated" };
    const recipient = (req.recipient ?? "").toLowerCase();
    const sender = (req.sender ?? "").toLowerCase();
    const client = req.client_address ?? "";
    const s = await settingsFor(this.o.db, recipient, this.o.defaults);
    if (!s) return { action: "DUNNO", rule: "not-hosted" };
    // Before any anti-spam rule, for a main.cf written before the first question asked it.
    if (await leadsNowhere(this.o.db, recipient)) return NO_DESTINATION;
    if (await expansionLoops(this.o.db, recipient)) return LOOP;

    // The first question (above) has refused a black-listed sender already, whoever the client; here too, for a
    // main.cf written before it asked that.
    const white = listMatches(s.white, sender);
    const refused = blackListed(s, recipient, sender);
    if (refused) return refused;
    // SPF before the white list: a white-listed sender is an envelope address anyone can write, and its domain's SPF
    // is what says the client may use it. Before, a forged sender of a white-listed domain publishing -all was let in
    // and skipped the spam filter. Only the SPF white list skips SPF.
    if (
      s.enabled.spf &&
      !listMatches(s.spfWhite, sender) &&
      (await this.spfFails(sender, client, req.helo_name ?? ""))
    ) {
      return {
        action: `REJECT 5.7.23 <${sender}>: SPF of the sender's domain does not allow ${client} (hard fail)`,
        rule: "spf",
      };
    }
    // The white list skips the checks below.
    if (white) return { action: "DUNNO", rule: "white-list" };
    if (s.enabled.rbl && !listMatches(s.rblWhite, sender)) {
      const zone = await this.rblListing(client);
      if (zone) return { action: `REJECT 5.7.1 client ${client} is listed in ${zone}`, rule: "rbl" };
    }
    if (s.enabled.greylist && !listMatches(s.greylistWhite, sender)) {
      const wait = await this.o.greylist.check(
        client,
        sender,
        recipient,
        this.o.greylistDelayS,
        (this.o.now ?? Date.now)(),
      );
      if (wait > 0) return { action: `DEFER 4.7.1 greylisted, try again in ${wait} s`, rule: "greylist" };
      return { action: "DUNNO", rule: "greylist-passed" };
    }
    return { action: "DUNNO", rule: "none" };
  }

  /**
   * Postfix checks the password only at AUTH: a session that logged in before the account's password changed would
   * go on sending for as long as it stays connected. Deferred (450), not refused: the mail program's outbox retries
   * over a new connection, which needs the new password (./signed-in-sessions.ts).
   */
  private async signedInBeforeChange(req: PolicyRequest): Promise<PolicyAnswer | undefined> {
    if (!(await this.sessions.signedInBeforeChange(req))) return undefined;
    const login = (req.sasl_username ?? "").toLowerCase();
    return {
      action: `450 4.7.1 ${login} signed in before its password was changed; sign in again with the new password`,
      rule: "password-changed",
    };
  }

  /**
   * A signed-in sender's recipient counted against its domain's sending limit (./send-limit.ts); past it, deferred
   * (450): the client's queue retries later, and nothing is accepted and then returned.
   */
  private async withinSendLimit(login: string): Promise<PolicyAnswer> {
    const decision = await this.sendLimit.count(login, (this.o.now ?? Date.now)());
    if (decision.allowed) return { action: "DUNNO", rule: "none" };
    return {
      action: `450 4.7.1 ${login} has reached its sending limit of ${decision.limit} ${decision.limit === 1 ? "recipient" : "recipients"} per hour; try again later`,
      rule: "send-limit",
    };
  }

  /**
   * Rspamd's question at the end of DATA (END_OF_DATA_REQUEST), with every accepted recipient and the message's
   * size: a mailbox it would not fit in (a sender that gave no SIZE=), or the list service's refusal of a message to
   * one of its lists (lib/lists/admission.ts). One answer for the whole message: SMTP has no per-recipient reply there.
   */
  private async endOfData(req: PolicyRequest): Promise<PolicyAnswer> {
    const recipients = (req.recipients ?? "")
      .split(",")
      .map((r) => r.trim().toLowerCase())
      .filter(Boolean);
    // A signed-in user's header From is one of its own addresses, as its envelope sender is (Postfix checks that one):
    // before, a user of a domain signed mail From a colleague with the domain's DKIM key.
    const login = (req.user ?? "").toLowerCase();
    const from = (req.from ?? "").toLowerCase();
    // Its own address is looked up too: the account may have been blocked, expired or deleted since its RCPT.
    if (login && !(from && (await mayUseSender(this.o.db, login, from))))
      return {
        action:
          from === login
            ? `REJECT 5.7.1 ${login} may not send now: the account is blocked, expired or deleted`
            : `REJECT 5.7.1 The From header must be one address of ${login}`,
        rule: "sender",
      };
    // A signed-in null sender (MAIL FROM:<>) is what mail programs send read receipts with (RFC 8098): taken for a
    // report or an automatic reply, whose From was checked above. Anything else could not be answered or bounced.
    if (login && (req.sender ?? "") === "" && !looksLikeReport({ ...req, from: "" })) return SIGNED_IN_NULL_SENDER;
    if (!looksLikeReport(req))
      for (const rcpt of recipients)
        if (SRS_ADDRESS.test(rcpt) && !(await isHostedName(this.o.db, rcpt))) return SRS_REPORTS_ONLY;
    const size = Number(req.size) || 0;
    // With the score known, a forward-only account that keeps this message in its Spam folder stores it too.
    const sender = (req.sender ?? "").toLowerCase();
    const spam =
      req.centiscore === undefined
        ? undefined
        : (address: string) => keepsAsSpam(this.o.db, address, Number(req.centiscore) || 0, sender);
    const spamOn = await spamSentOn(this.o.db, recipients, req.centiscore, spam);
    if (spamOn) return spamOn;
    for (const rcpt of recipients) {
      const full =
        this.o.quotaStatus &&
        (await this.fullMailbox(
          (await deliveries(this.o.db, rcpt, { keepsAsSpam: spam, drops: dropsFrom(this.o.db, sender) })).mailboxes,
          size,
        ));
      if (full)
        return {
          action: `REJECT 5.2.2 The mailbox of ${rcpt} has no room for this message (${size} bytes)`,
          rule: "quota",
        };
    }
    const store = listStore(this.o.db);
    const poster = (req.from ?? "").toLowerCase();
    // A list's address, or an alias or forward-only account that leads only to lists (Postfix expands those after
    // this answer, so the list service would otherwise meet the post only once it was accepted): refused when every
    // list it reaches refuses it.
    for (const rcpt of recipients) {
      const reached = await onlyListsReached(this.o.db, rcpt, spam);
      let refusal: string | undefined;
      for (const address of reached ?? []) {
        const list = await store.listByEmail(address);
        const decision = list
          ? await admit(store, list, {
              listIds: [req.list_ids ?? ""],
              autoSubmitted: req.auto_submitted ?? "",
              envelopeFrom: req.sender ?? "",
              poster,
              verified: req.verified === "1",
              subject: req.subject ?? "",
              headerBytes: Number(req.header_bytes) || 0,
            })
          : undefined;
        if (decision?.kind !== "refuse") {
          refusal = undefined;
          break;
        }
        refusal ??= decision.text;
      }
      if (refusal) return { action: `REJECT ${refusal}`, rule: "list-refused" };
    }
    return { action: "DUNNO", rule: "none" };
  }

  /** The first of `mailboxes` (deliveries: where a message is stored) that Dovecot's quota-status says has no room for `size` more bytes. */
  private async fullMailbox(mailboxes: string[], size: number): Promise<string | undefined> {
    if (!this.o.quotaStatus) return undefined;
    for (const mailbox of mailboxes) {
      const answer = await askPolicy(this.o.quotaStatus, `recipient=${mailbox}\nsize=${size}\n\n`);
      // Only a refusal counts: a temporary answer or none refuses nothing (fail open, as Postfix's default_action).
      if (/^action=(5\d\d|REJECT)\b/i.test(answer)) return mailbox;
    }
    return undefined;
  }

  private async spfFails(sender: string, ip: string, helo: string): Promise<boolean> {
    if (!ip) return false;
    const result = await spf({
      sender: sender || `postmaster@${helo}`,
      ip,
      helo,
      mta: "mailadmin-policy",
      resolver: (name: string, type: string) => this.resolver.resolve(name, type) as Promise<never>,
    });
    return result.status.result === "fail";
  }

  /**
   * The first zone that lists the client's IPv4 address (an A record in 127.0.0.0/8), or undefined. An answer in
   * 127.255.255.0/24 is the list refusing the query (Spamhaus: through a public resolver, or over its free volume),
   * not a listing: counted as not listed, like a DNS failure (fail open), and logged at most hourly per zone.
   */
  private async rblListing(ip: string): Promise<string | undefined> {
    if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return undefined;
    const reversed = ip.split(".").reverse().join(".");
    for (const zone of this.o.rblZones) {
      try {
        const answers = await this.resolver.resolve4(`${reversed}.${zone}`);
        const refusal = answers.find((a) => a.startsWith("127.255.255."));
        if (refusal) this.logRefusal(zone, refusal);
        else if (answers.some((a) => a.startsWith("127."))) return zone;
      } catch {
        // NXDOMAIN: not listed; a DNS failure counts as not listed (fail open)
      }
    }
    return undefined;
  }

  private readonly refusalsLogged = new Map<string, number>();

  private logRefusal(zone: string, answer: string) {
    const now = (this.o.now ?? Date.now)();
    if (now - (this.refusalsLogged.get(zone) ?? -Infinity) < 3_600_000) return;
    this.refusalsLogged.set(zone, now);
    this.o.log?.(
      `RBL ${zone} refused the query (${answer}): nothing is refused by it; use a resolver of your own or the list's paid service`,
    );
  }
}

/** One request to a policy service (Dovecot's quota-status); its answer line, "" when it does not answer in 10 s. */
function askPolicy(target: { host: string; port: number }, request: string): Promise<string> {
  return new Promise((resolve) => {
    let data = "";
    const socket = net.connect(target.port, target.host, () => socket.write(request));
    const done = () => {
      socket.destroy();
      resolve(data.split("\n")[0] ?? "");
    };
    socket.setTimeout(10_000, done);
    socket.on("data", (d) => {
      data += d.toString();
      if (data.includes("\n\n") || data.length > 4096) done();
    });
    socket.on("error", done);
    socket.on("close", done);
  });
}
