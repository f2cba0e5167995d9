import "server-only";
// Repeated failed logins for one account from one client address lock that pair out for a while; during the
// lock the password is not even checked, so guessing costs the attacker time and costs us no scrypt.
import { setBounded } from "./bounded-map";
import { env } from "./env";

interface Entry {
  failures: number;
  lockedUntil: number;
  lockouts: number;
  lastFailure: number;
}

const MAX_ENTRIES = 50_000;
const FORGET_AFTER_MS = 15 * 60_000;
const entries = new Map<string, Entry>();

export function failureGate(ip: string, email: string, now = Date.now()) {
  const key = `${ip}|${email}`;
  const entry = entries.get(key);
  const lockedFor = entry && entry.lockedUntil > now ? Math.ceil((entry.lockedUntil - now) / 1000) : 0;
  return {
    lockedFor,
    fail() {
      const e =
        entry && now - entry.lastFailure < FORGET_AFTER_MS
          ? entry
          : { failures: 0, lockedUntil: 0, lockouts: 0, lastFailure: now };
      e.failures += 1;
      e.lastFailure = now;
      if (e.failures >= env().AUTH_MAX_FAILURES) {
        // Each further lockout doubles, up to 15 minutes.
        e.lockedUntil = now + Math.min(env().AUTH_LOCKOUT_SECONDS * 1000 * 2 ** e.lockouts, FORGET_AFTER_MS);
        e.lockouts += 1;
        e.failures = 0;
      }
      setBounded(entries, MAX_ENTRIES, key, e);
    },
    succeed() {
      if (entry) entries.delete(key);
    },
  };
}
