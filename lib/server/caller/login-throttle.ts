import "server-only";
// Failed logins, counted in the database so that every process sees the same locks and a restart forgets none
// (OWASP authentication and credential-stuffing guidance). Three kinds of row in `login_throttle`:
//   account  (client_ip '*', email): failures for one account over ALL client addresses. AUTH_MAX_FAILURES lock
//            the account for AUTH_LOCKOUT_SECONDS, doubling with each further lock up to 15 minutes; during the lock
//            the password is not checked, so rotating addresses buys no guesses.
//   address  (client_ip, email ''): failures from one client address over all accounts. Past
//            AUTH_ADDRESS_MAX_FAILURES its failures are answered slowly (SLOW_FAILURE_MS); a correct password for
//            an account that is not locked is never refused, so a shared address (a proxy, a NAT) locks nobody out.
//   device   ('device:<id>', email): failures of one panel browser that has signed in to the account before
//            (lib/server/caller/device-cookie.ts). Such a browser is exempt from the account's lock and is locked only by
//            its own failures, so an attacker cannot lock the real user out of the panel.
// Rows are only ever removed once they no longer lock anything (a success clears its own rows; `purgeLoginThrottle`
// clears stale rows).
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginThrottle } from "@/db/schema";
import { env } from "../env";
import { changedRows, forUpdate, withTransaction } from "@/db/transaction";
import { prepared } from "../store/prepared";
import { UntilChangedCache } from "../store/db-generation";

const FORGET_AFTER_MS = 15 * 60_000;
/** How long a failure from an address past its budget waits before it is answered. */
export const SLOW_FAILURE_MS = 1000;
const ACCOUNT = "*"; // client_ip of the per-account row
const ADDRESS = ""; // email of the per-address row

type Row = typeof loginThrottle.$inferSelect;
type Key = { clientIp: string; email: string };

const throttleRows = or(
  and(eq(loginThrottle.clientIp, ACCOUNT), eq(loginThrottle.email, sql.placeholder("email"))),
  and(eq(loginThrottle.clientIp, sql.placeholder("ip")), eq(loginThrottle.email, ADDRESS)),
  and(eq(loginThrottle.clientIp, sql.placeholder("device")), eq(loginThrottle.email, sql.placeholder("email"))),
);
const rowsQueryOf = (db: Db) => db.select().from(loginThrottle).where(throttleRows);
// The rows of a sign-in's keys while the database is unchanged, so a program calling the API again and again does
// not read them on every call; another process's failure is seen once its change announcement arrives, as a read
// made just before that commit would have missed it.
const seenRows = new UntilChangedCache<readonly Row[]>(1000);

const statements = prepared((db) => ({
  rows: rowsQueryOf(db).prepare(),
  // The same rows, read inside fail()'s transaction: locked on PostgreSQL (the write connection's BEGIN IMMEDIATE
  // already serialises SQLite's writers).
  rowsForUpdate: forUpdate(db, rowsQueryOf(db)).prepare(),
  upsert: db
    .insert(loginThrottle)
    .values({
      clientIp: sql.placeholder("clientIp"),
      email: sql.placeholder("email"),
      failures: sql.placeholder("failures"),
      lockouts: sql.placeholder("lockouts"),
      lockedUntil: sql.placeholder("lockedUntil"),
      lastFailure: sql.placeholder("lastFailure"),
    })
    .onConflictDoUpdate({
      target: [loginThrottle.clientIp, loginThrottle.email],
      set: {
        failures: sql`excluded.failures`,
        lockouts: sql`excluded.lockouts`,
        lockedUntil: sql`excluded.locked_until`,
        lastFailure: sql`excluded.last_failure`,
      },
    })
    .prepare(),
  // An empty row for a key that has none yet, so that fail()'s FOR UPDATE has a row to lock: without it two first
  // failures at once both read "no row" and the second overwrites the first's count.
  ensure: db
    .insert(loginThrottle)
    .values({
      clientIp: sql.placeholder("clientIp"),
      email: sql.placeholder("email"),
      failures: 0,
      lockouts: 0,
      lockedUntil: 0,
      lastFailure: 0,
    })
    .onConflictDoNothing()
    .prepare(),
  clear: db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.clientIp, sql.placeholder("ip")), eq(loginThrottle.email, sql.placeholder("email"))))
    .prepare(),
}));

/** The row after one more failure at `now` (a row quiet for 15 minutes and unlocked starts afresh). */
function failed(row: Row | undefined, key: Key, max: number, now: number): Row {
  const fresh = !row || (row.lockedUntil <= now && now - row.lastFailure >= FORGET_AFTER_MS);
  const next: Row = fresh
    ? { ...key, failures: 0, lockouts: 0, lockedUntil: 0, lastFailure: now }
    : { ...row, lastFailure: now };
  next.failures += 1;
  if (next.failures >= max) {
    next.lockedUntil = now + Math.min(env().AUTH_LOCKOUT_SECONDS * 1000 * 2 ** next.lockouts, FORGET_AFTER_MS);
    next.lockouts += 1;
    next.failures = 0;
  }
  return next;
}

export interface FailureGate {
  /** Seconds until this sign-in may be tried: the account's lock, or the device's for a known device; 0 if none. */
  lockedFor: number;
  /** How long a failure should wait before it is answered (the client address is past its budget); 0 if not. */
  slowFailureMs: number;
  fail(): Promise<void>;
  /**
   * Counts a failure against the lock before the guess is checked, under the row lock, unless the lock is on
   * (answers its seconds; nothing counted): concurrent guesses cannot outrun the lock. `succeed()` takes it back.
   */
  reserve(): Promise<number>;
  /** Counts a failure against the client address only (after `reserve()`, for a guess that was wrong). */
  failAddress(): Promise<void>;
  succeed(): Promise<void>;
}

const secondsUntil = (until: number, now: number) => (until > now ? Math.ceil((until - now) / 1000) : 0);

/**
 * The throttle state of one sign-in: `typed` is the account address as typed, `deviceId` the id of a valid device
 * cookie for that same account (null for /api/v1 and for browsers without one).
 */
export async function failureGate(
  db: Db,
  ip: string,
  typed: string,
  deviceId: string | null = null,
  now = Date.now(),
): Promise<FailureGate> {
  // An empty account address must not share the per-address row.
  const email = typed === ADDRESS ? "(none)" : typed;
  const device = deviceId ? `device:${deviceId}` : "(no device)";
  const params = { ip, email, device };
  const find = (rows: readonly Row[], key: Key) =>
    rows.find((r) => r.clientIp === key.clientIp && r.email === key.email);
  const accountKey = { clientIp: ACCOUNT, email };
  const addressKey = { clientIp: ip, email: ADDRESS };
  const deviceKey = { clientIp: device, email };
  const rows = (await seenRows.get(db, `${ip}\0${email}\0${device}`, () => statements(db).rows.execute(params))) ?? [];
  const lock = deviceId ? find(rows, deviceKey) : find(rows, accountKey);
  const address = find(rows, addressKey);
  let reserved = false;
  // Read again inside the transaction: two processes failing at once must both be counted. On PostgreSQL the rows
  // are locked (FOR UPDATE; `ensure` first, so that there is a row to lock) so that two at once count twice.
  // `unlessLocked`: count nothing and answer the lock's seconds when the lock is on.
  const count = (lockRow: boolean, addressRow: boolean, unlessLocked = false) =>
    withTransaction(db, async (tx) => {
      const s = statements(tx);
      // A known device counts against itself only: its typos must not help an attacker lock the account.
      const lockKey = deviceId ? deviceKey : accountKey;
      if (lockRow) await s.ensure.execute(lockKey);
      if (addressRow) await s.ensure.execute(addressKey);
      const current = await s.rowsForUpdate.execute(params);
      if (unlessLocked) {
        const seconds = secondsUntil(find(current, lockKey)?.lockedUntil ?? 0, now);
        if (seconds > 0) return seconds;
        reserved = true;
      }
      if (lockRow) await s.upsert.execute(failed(find(current, lockKey), lockKey, env().AUTH_MAX_FAILURES, now));
      if (addressRow)
        await s.upsert.execute(failed(find(current, addressKey), addressKey, env().AUTH_ADDRESS_MAX_FAILURES, now));
      return 0;
    });
  return {
    lockedFor: secondsUntil(lock?.lockedUntil ?? 0, now),
    slowFailureMs: address && address.lockedUntil > now ? SLOW_FAILURE_MS : 0,
    async fail() {
      await count(true, true);
    },
    async reserve() {
      return count(true, false, true);
    },
    async failAddress() {
      await count(false, true);
    },
    async succeed() {
      // The address budget is not reset: a guesser who also owns one account could otherwise refill it. A device's
      // success does not reset the account's row either: the attack on it may be going on.
      const key = deviceId ? deviceKey : accountKey;
      if (reserved || find(rows, key))
        await withTransaction(db, (tx) => statements(tx).clear.execute({ ip: key.clientIp, email: key.email }));
    },
  };
}

/** Seconds left of the lock on an account (over all client addresses; devices apart); 0 when none. */
export async function lockedFor(db: Db, email: string, now = Date.now()): Promise<number> {
  const [row] = await db
    .select({ until: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(and(eq(loginThrottle.clientIp, ACCOUNT), eq(loginThrottle.email, email)))
    .limit(1);
  return secondsUntil(row?.until ?? 0, now);
}

/** Deletes the rows that neither lock nor count any more; returns how many. */
export function purgeLoginThrottle(db: Db, now = Date.now()): Promise<number> {
  return withTransaction(db, async (tx) =>
    changedRows(
      tx,
      await tx
        .delete(loginThrottle)
        .where(and(lt(loginThrottle.lockedUntil, now), lt(loginThrottle.lastFailure, now - FORGET_AFTER_MS))),
    ),
  );
}
