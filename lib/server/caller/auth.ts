import "server-only";
// Who is calling: HTTP Basic with the SHA-1 hex digest of the password, checked against the stored scrypt hash.
// A bounded cache of verified (address, digest) pairs keeps repeated calls from paying scrypt; an entry is only
// honoured while the stored hash is the one it was verified against, so a password change drops it everywhere.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, type AccountRow, type DomainRow } from "@/db/schema";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { setBounded } from "../store/bounded-map";
import { UntilChangedCache } from "../store/db-generation";
import { env } from "../env";
import { API_HASH_AT_FIRST_SIGN_IN, hashDigest, hashDigestAsync, sha1Hex, verifyDigestAsync } from "./password";
import { importedCheckPlace } from "@/lib/mailserver/imported-hashes";
import { mailPasswordHashAsync } from "@/lib/mailserver/sha512-crypt";
import { withTransaction } from "@/db/transaction";
import { prepared } from "../store/prepared";
import { failureGate, type FailureGate } from "./login-throttle";

export interface Principal {
  account: Readonly<AccountRow>;
  domain: string;
  isPostmaster: boolean;
  /**
   * The caller's domain as read with its account (same statement): requests about the caller's own domain use it
   * instead of reading the domain again (lib/server/caller/access.ts).
   */
  domainRow?: Readonly<DomainRow>;
  /** Set when the caller is a panel session: the SHA-256 of its id (a password change keeps that session). */
  sessionIdHash?: string;
}

const verified = new Map<string, string>(); // "email\0digest" -> password_hash it was verified against
// The account (and domain name) behind an email, while the database is unchanged: a program calling the API
// again and again does not pay the lookup each time.
type CallerRow = { account: Readonly<AccountRow>; domain: Readonly<DomainRow> };
const callers = new UntilChangedCache<CallerRow>(1000);

/**
 * The checks under way in this process, by "email\0digest": the same credentials sent again before the first check
 * ends wait for it instead of counting as further guesses. A client sending its right password on several connections
 * at once (after a restart or a password change) was refused 403.1 by the lock its own requests' reservations set;
 * different guesses still reserve one each.
 */
const checking = new Map<string, Promise<void>>();

function remember(key: string, hash: string) {
  const max = env().AUTH_CACHE_SIZE;
  if (max === 0) return;
  setBounded(verified, max, key, hash);
}

const statements = prepared((db) => ({
  byEmail: db
    .select({ account: accounts, domain: domains })
    .from(accounts)
    .innerJoin(domains, eq(domains.id, accounts.domainId))
    .where(eq(accounts.email, sql.placeholder("email")))
    .prepare(),
  touch: db
    .update(accounts)
    .set({ lastAuthDate: sql`${sql.placeholder("date")}`, lastAuthIp: sql`${sql.placeholder("ip")}` })
    .where(eq(accounts.id, sql.placeholder("id")))
    .prepare(),
}));

export interface Credentials {
  email: string;
  digest: string;
  /**
   * The password as typed, sent by the panel's sign-in and password change (never by /api/v1): read only for an
   * imported account whose API hash is made at its first sign-in (API_HASH_AT_FIRST_SIGN_IN).
   */
  password?: string;
}
// Parsed by value: a program sends the same header on every call.
const parsedHeaders = new Map<string, Credentials | null>();
const MAX_PARSED_HEADERS = 1000;

/** Parses `Basic base64(email:digest)`; null when absent or malformed. */
export function parseBasic(header: string | null): Readonly<Credentials> | null {
  if (!header) return null;
  let creds = parsedHeaders.get(header);
  if (creds === undefined) {
    creds = decodeBasic(header);
    setBounded(parsedHeaders, MAX_PARSED_HEADERS, header, creds && Object.freeze(creds));
  }
  return creds;
}

function decodeBasic(header: string): Credentials | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return {
    email: decoded.slice(0, colon).trim().toLowerCase(),
    digest: decoded
      .slice(colon + 1)
      .trim()
      .toLowerCase(),
  };
}

// Today's date (UTC, YYYY-MM-DD), worked out once a day: Next wraps Date in route handlers, which makes
// `new Date()` cost several microseconds on every call.
let day = { value: "", until: 0 };

export function today(): string {
  const now = performance.timeOrigin + performance.now();
  if (now >= day.until) {
    const date = new Date(now);
    day = {
      value: date.toISOString().slice(0, 10),
      until: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1),
    };
  }
  return day.value;
}

/** Blocked, or past its expiration date: refused at login whatever the password. */
export function isLoginRefused(account: AccountRow, now = today()): boolean {
  return account.blocked === 1 || (account.expirationDate !== "" && account.expirationDate < now);
}

/** How soon a sign-in refused for want of a place in the line of imported-hash checks may try again (seconds). */
const IMPORTED_LINE_FULL_RETRY_SECONDS = 1;

/** A failed sign-in's answer: counted (unless `reserved` counted it against the lock already), slowed past budget. */
async function refuse(gate: FailureGate, reserved = false): Promise<never> {
  await (reserved ? gate.failAddress() : gate.fail());
  // An address past its budget is answered slowly; it is never refused a correct password.
  if (gate.slowFailureMs > 0) await new Promise((r) => setTimeout(r, gate.slowFailureMs));
  throw apiError("badCredentials");
}

/**
 * An imported account's first sign-in: the password typed (the panel sends it beside its digest) checked against the
 * mail hash the import stored, then the account's normal hashes made from it and written in its place (the API's
 * scrypt and our SHA512-CRYPT, so an old system's weaker scheme goes too). From then on /api/v1 works for it as for
 * any account. The account with its new hashes; undefined when no password came (an /api/v1 call) or it is not the
 * digest's (the caller counts that failure). A checked attempt counts itself: the check costs up to seconds of the
 * event loop's turns (a SHA-crypt hash at the import's cap), so it waits for a place in a short line (past it: 403.1
 * tooManyFailures, nothing checked nor counted) and is counted against the account's lock before it runs (reserve;
 * succeed() takes it back), so that attempts in flight get no more checks than the lock allows.
 */
async function firstSignIn(
  db: Db,
  account: AccountRow,
  creds: Readonly<Credentials>,
  gate: FailureGate,
): Promise<AccountRow | undefined> {
  const password = creds.password;
  if (typeof password !== "string" || sha1Hex(password) !== creds.digest) return undefined;
  const place = importedCheckPlace();
  if (!place) throw new ApiError("tooManyFailures", { attributes: { retry_after: IMPORTED_LINE_FULL_RETRY_SECONDS } });
  let lockedSeconds: number;
  try {
    lockedSeconds = await gate.reserve();
  } catch (err) {
    place.release();
    throw err;
  }
  if (lockedSeconds > 0) {
    place.release();
    throw new ApiError("tooManyFailures", { attributes: { retry_after: lockedSeconds } });
  }
  if (!(await place.verify(password, account.mailPasswordHash))) return refuse(gate, true);
  const [hash, mailHash] = await Promise.all([hashDigestAsync(sha1Hex(password)), mailPasswordHashAsync(password)]);
  // Only while the account still waits for it: a password set meanwhile (by its administrator) stays.
  const [updated] = await withTransaction(db, (tx) =>
    tx
      .update(accounts)
      .set({ passwordHash: hash, mailPasswordHash: mailHash })
      .where(and(eq(accounts.id, account.id), eq(accounts.passwordHash, API_HASH_AT_FIRST_SIGN_IN)))
      .returning()
      .execute(),
  );
  if (!updated) return refuse(gate, true);
  return updated;
}

/** Longer than any account's address; short enough for PostgreSQL's index of the login throttle in UTF-8. */
const MAX_ADDRESS_LENGTH = 320;
const IMPOSSIBLE_ADDRESS = "(no such address)";

// What an unknown address is checked against: a hash made like the stored ones (contract §9).
let unknownAccountHash: string | undefined;
const decoyHash = () => (unknownAccountHash ??= hashDigest("0".repeat(40)));

/**
 * Verifies credentials for a client address and records the login (last_auth_ip shows the client address).
 * `revealRefusal` (the panel's sign-in) adds why a blocked or expired account was refused, to a caller who has just
 * proved its password; /api/v1 answers it like a wrong password.
 */
export async function authenticate(
  db: Db,
  creds: Readonly<Credentials>,
  clientIp: string,
  {
    revealRefusal = false,
    deviceId = null,
  }: {
    revealRefusal?: boolean;
    /** The id of a genuine device cookie for this account (panel sign-in): exempt from the account's lock. */
    deviceId?: string | null;
  } = {},
): Promise<Principal> {
  // An address no account can have failed the queries below on PostgreSQL (500.100) where any other unknown address
  // is refused: one with U+0000, which its text cannot hold, or one too long for the throttle's index (an index row
  // holds at most 2704 bytes; an account's address has at most 32 + 1 + 253 characters). Such an address is
  // counted and checked as a stand-in that no address matches.
  if (creds.email.includes("\0") || creds.email.length > MAX_ADDRESS_LENGTH)
    creds = { ...creds, email: IMPOSSIBLE_ADDRESS };
  const gate = await failureGate(db, clientIp, creds.email, deviceId);
  if (gate.lockedFor > 0) throw new ApiError("tooManyFailures", { attributes: { retry_after: gate.lockedFor } });

  const row = await callers.get(db, creds.email, async () => {
    const [found] = await statements(db).byEmail.execute({ email: creds.email });
    return found && Object.freeze({ account: Object.freeze(found.account), domain: Object.freeze(found.domain) });
  });
  const key = `${creds.email}\0${creds.digest}`;
  // An unknown address is checked against a decoy hash of the same cost, and a malformed digest is checked too, so
  // that every failure costs one scrypt and the time taken tells nothing about which addresses exist.
  const hash = row?.account.passwordHash ?? decoyHash();
  const imported = hash === API_HASH_AT_FIRST_SIGN_IN;
  // scrypt runs in low-priority worker threads (./password.ts): a flood of bad sign-ins does not hold up other
  // requests. An imported account pays the same scrypt (on the decoy), so a digest alone (/api/v1) does not tell it
  // apart; a panel sign-in whose password is its digest's pays the imported hash's check besides (firstSignIn), which
  // takes longer (docs/security.md).
  let known = !!row && !imported && verified.get(key) === hash;
  let release: (() => void) | undefined;
  if (row && !imported && !known) {
    for (let pending = checking.get(key); pending && !known; pending = checking.get(key)) {
      await pending;
      known = verified.get(key) === hash;
    }
    if (!known) {
      let done!: () => void;
      checking.set(key, new Promise<void>((resolve) => (done = resolve)));
      release = () => {
        checking.delete(key);
        done();
      };
    }
  }
  let found = row?.account;
  try {
    // A digest about to be checked is a guess: it is counted against the account's lock first (reserve; succeed()
    // takes it back), so that guesses sent at once get no more checks than the lock allows. Checked first and counted
    // after, 100 wrong guesses sent together were all checked, and the right one among them signed in. An imported
    // account's digest is checked against the decoy (no guess), and its first sign-in reserves for the check that is one.
    let reserved = false;
    if (!known && !(row && imported)) {
      const lockedSeconds = await gate.reserve();
      if (lockedSeconds > 0) throw new ApiError("tooManyFailures", { attributes: { retry_after: lockedSeconds } });
      reserved = true;
    }
    let ok =
      known ||
      ((await verifyDigestAsync(creds.digest, imported ? decoyHash() : hash)) &&
        !!row &&
        !imported &&
        /^[0-9a-f]{40}$/.test(creds.digest));
    if (row && imported) {
      found = await firstSignIn(db, row.account, creds, gate);
      ok = !!found;
    }
    if (!row || !found || !ok) return await refuse(gate, reserved);
    await gate.succeed();
    remember(key, found.passwordHash);
  } finally {
    release?.();
  }
  let account = found;
  const now = today();
  if (isLoginRefused(account, now)) {
    const reason = account.blocked === 1 ? "blocked" : "expired";
    throw revealRefusal ? new ApiError("badCredentials", { attributes: { reason } }) : apiError("badCredentials");
  }

  // Written only when it changes, so a busy API client does not turn every read into a write. The row may be
  // shared with later calls (see `callers`), so it is copied, never changed in place.
  if (account.lastAuthDate !== now || account.lastAuthIp !== clientIp) {
    const id = account.id;
    await withTransaction(db, (tx) => statements(tx).touch.execute({ id, date: now, ip: clientIp }));
    account = { ...account, lastAuthDate: now, lastAuthIp: clientIp };
  }
  return { account, domain: row.domain.name, domainRow: row.domain, isPostmaster: account.name === "postmaster" };
}
