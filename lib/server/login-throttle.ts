import "server-only";
// Failed logins, counted in the database so that every process sees the same locks and a restart forgets none.
// Two budgets: per (client address, account address), AUTH_MAX_FAILURES before a lock; and per client address
// across all account addresses (the row with email ''), AUTH_ADDRESS_MAX_FAILURES, so that guessing over many
// addresses is throttled too. Each further lock of a row doubles, up to 15 minutes. During a lock the password is
// not checked, so guessing costs the attacker time and costs us no scrypt. Rows are only ever removed once they no
// longer lock anything (a success clears its pair; `purgeLoginThrottle` clears stale rows).
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { loginThrottle } from "@/db/schema";
import { env } from "./env";
import { prepared } from "./prepared";

const FORGET_AFTER_MS = 15 * 60_000;
const ADDRESS = ""; // the email of the per-address row

type Row = typeof loginThrottle.$inferSelect;

const statements = prepared((db) => ({
  rows: db
    .select()
    .from(loginThrottle)
    .where(
      and(
        eq(loginThrottle.clientIp, sql.placeholder("ip")),
        inArray(loginThrottle.email, [sql.placeholder("email"), ADDRESS]),
      ),
    )
    .prepare(),
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
  clear: db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.clientIp, sql.placeholder("ip")), eq(loginThrottle.email, sql.placeholder("email"))))
    .prepare(),
}));

/** The row after one more failure at `now` (a row quiet for 15 minutes and unlocked starts afresh). */
function failed(row: Row | undefined, key: { clientIp: string; email: string }, max: number, now: number): Row {
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
  /** Seconds until the pair or the address may try again; 0 when neither is locked. */
  lockedFor: number;
  fail(): void;
  succeed(): void;
}

export function failureGate(db: Db, ip: string, typed: string, now = Date.now()): FailureGate {
  // An empty address must not share the per-address row.
  const email = typed === ADDRESS ? "(none)" : typed;
  const rows = statements(db).rows.all({ ip, email });
  const lockedUntil = Math.max(0, ...rows.map((r) => r.lockedUntil));
  return {
    lockedFor: lockedUntil > now ? Math.ceil((lockedUntil - now) / 1000) : 0,
    fail() {
      // Read again inside an immediate transaction: two processes failing at once must both be counted.
      db.transaction(
        () => {
          const s = statements(db);
          const current = s.rows.all({ ip, email });
          const pair = current.find((r) => r.email === email);
          const address = current.find((r) => r.email === ADDRESS);
          s.upsert.run(failed(pair, { clientIp: ip, email }, env().AUTH_MAX_FAILURES, now));
          s.upsert.run(failed(address, { clientIp: ip, email: ADDRESS }, env().AUTH_ADDRESS_MAX_FAILURES, now));
        },
        { behavior: "immediate" },
      );
    },
    succeed() {
      // The address budget is not reset: a guesser who also owns one account could otherwise refill it.
      if (rows.some((r) => r.email === email)) statements(db).clear.run({ ip, email });
    },
  };
}

/** Deletes the rows that neither lock nor count any more; returns how many. */
export function purgeLoginThrottle(db: Db, now = Date.now()): number {
  return db
    .delete(loginThrottle)
    .where(and(lt(loginThrottle.lockedUntil, now), lt(loginThrottle.lastFailure, now - FORGET_AFTER_MS)))
    .run().changes;
}
