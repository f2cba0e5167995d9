import "server-only";
// Panel sessions (backend-for-frontend), in the `sessions` table so that every process sees the same ones and a
// restart keeps them. The browser holds a random 256-bit id in an httpOnly, SameSite=Strict cookie; the table keeps
// only its SHA-256 hash, the account and the times: nothing in it authenticates, so a leaked copy signs nobody in.
// A session stands for its account only while the account may sign in: blocking it, giving it a past expiration
// date or a new password deletes its sessions at once (lib/server/resources/accounts.ts), and one that expires by the
// calendar ends at its next use. At most MAX_SESSIONS_PER_ACCOUNT live at once: a new one ends the oldest.
// The cookie is `__Host-mailadmin_session` over HTTPS (no subdomain can set or shadow it), the plain name over
// HTTP for local use; a request carrying more than one session cookie is refused (cookie tossing).
import { createHash, randomBytes } from "node:crypto";
import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, domains, sessions } from "@/db/schema";
import { isLoginRefused, type Principal } from "./auth";
import { purgeLoginThrottle } from "./login-throttle";
import { dialectOf } from "@/db/dialect";
import { changedRows, withTransaction } from "@/db/transaction";
import { prepared } from "../store/prepared";

export const SESSION_COOKIE = "mailadmin_session";
export const SECURE_SESSION_COOKIE = "__Host-mailadmin_session";
export const MAX_SESSIONS_PER_ACCOUNT = 20;
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
// last_seen_at is written at most once a minute per session, so that reading pages does not turn into writes.
const TOUCH_EVERY_MS = 60 * 1000;

/** What page JS may know about its session. */
export interface SessionInfo {
  email: string;
  domain: string;
  isPostmaster: boolean;
}

export interface ResolvedSession {
  /** The SHA-256 hex of the cookie's id: the table's key. */
  idHash: string;
  principal: Principal;
}

export const hashSessionId = (id: string) => createHash("sha256").update(id).digest("hex");

const statements = prepared((db) => ({
  insert: db
    .insert(sessions)
    .values({
      idHash: sql.placeholder("idHash"),
      accountId: sql.placeholder("accountId"),
      createdAt: sql.placeholder("now"),
      lastSeenAt: sql.placeholder("now"),
      clientIp: sql.placeholder("clientIp"),
    })
    .prepare(),
  lookup: db
    .select({ session: sessions, account: accounts, domain: domains })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .innerJoin(domains, eq(domains.id, accounts.domainId))
    .where(eq(sessions.idHash, sql.placeholder("idHash")))
    .prepare(),
  touch: db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder("now")}`, clientIp: sql`${sql.placeholder("clientIp")}` })
    .where(eq(sessions.idHash, sql.placeholder("idHash")))
    .prepare(),
  // Keeps the account's newest MAX_SESSIONS_PER_ACCOUNT sessions (ties broken by insertion order).
  cap: db
    .delete(sessions)
    .where(
      and(
        eq(sessions.accountId, sql.placeholder("accountId")),
        sql`${sessions.idHash} NOT IN (SELECT id_hash FROM sessions WHERE account_id = ${sql.placeholder("accountId")}
          ORDER BY created_at DESC, ${dialectOf(db).sessionInsertionOrder} DESC LIMIT ${MAX_SESSIONS_PER_ACCOUNT})`,
      ),
    )
    .prepare(),
  remove: db
    .delete(sessions)
    .where(eq(sessions.idHash, sql.placeholder("idHash")))
    .prepare(),
}));

const isExpired = (s: { createdAt: number; lastSeenAt: number }, now: number) =>
  now - s.lastSeenAt > IDLE_TIMEOUT_MS || now - s.createdAt > ABSOLUTE_TIMEOUT_MS;

/** Starts a session for a signed-in account; returns the id for the cookie (never stored). */
export async function createSession(db: Db, principal: Principal, clientIp: string, now = Date.now()): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await withTransaction(db, async (tx) => {
    const s = statements(tx);
    await s.insert.execute({ idHash: hashSessionId(id), accountId: principal.account.id, now, clientIp });
    await s.cap.execute({ accountId: principal.account.id });
  });
  return id;
}

/**
 * The account behind a session id, with the idle timer restarted; null when the id is unknown, the session has
 * expired (its row is deleted then), or the account may no longer sign in (all its sessions are deleted then).
 */
export async function resolveSession(
  db: Db,
  id: string | null | undefined,
  clientIp: string,
  now = Date.now(),
): Promise<ResolvedSession | null> {
  if (!id) return null;
  const idHash = hashSessionId(id);
  const [found] = await statements(db).lookup.execute({ idHash });
  if (!found) return null;
  if (isExpired(found.session, now)) {
    await withTransaction(db, (tx) => statements(tx).remove.execute({ idHash }));
    return null;
  }
  if (isLoginRefused(found.account)) {
    await endSessions(db, found.account.id);
    return null;
  }
  if (now - found.session.lastSeenAt >= TOUCH_EVERY_MS || found.session.clientIp !== clientIp) {
    await withTransaction(db, (tx) => statements(tx).touch.execute({ idHash, now, clientIp }));
  }
  const principal: Principal = {
    account: found.account,
    domain: found.domain.name,
    domainRow: found.domain,
    isPostmaster: found.account.name === "postmaster",
    sessionIdHash: idHash,
  };
  return { idHash, principal };
}

export async function destroySession(db: Db, id: string | null | undefined): Promise<void> {
  if (id) await withTransaction(db, (tx) => statements(tx).remove.execute({ idHash: hashSessionId(id) }));
}

/** Ends every session of the accounts except `keepIdHash` (the one that changed the password). */
export async function endSessions(db: Db, accountIds: number | readonly number[], keepIdHash = ""): Promise<void> {
  const ids = typeof accountIds === "number" ? [accountIds] : [...new Set(accountIds)];
  if (ids.length === 0) return;
  await withTransaction(db, async (tx) => {
    // A bulk change of accounts: one statement per slice of 500, not one per account.
    for (let i = 0; i < ids.length; i += 500) {
      await tx
        .delete(sessions)
        .where(and(inArray(sessions.accountId, ids.slice(i, i + 500)), ne(sessions.idHash, keepIdHash)));
    }
  });
}

/** Deletes the sessions past their idle or absolute limit; returns how many. */
export function purgeExpiredSessions(db: Db, now = Date.now()): Promise<number> {
  return withTransaction(db, async (tx) =>
    changedRows(
      tx,
      await tx
        .delete(sessions)
        .where(or(lt(sessions.lastSeenAt, now - IDLE_TIMEOUT_MS), lt(sessions.createdAt, now - ABSOLUTE_TIMEOUT_MS))),
    ),
  );
}

/**
 * `db optimize`: deletes expired sessions and login-throttle rows that no longer lock or count anything (both are
 * also deleted as they are met; this catches the ones never met again).
 */
export async function purgeExpiredLoginState(
  db: Db,
  now = Date.now(),
): Promise<{ sessions: number; throttle: number }> {
  return { sessions: await purgeExpiredSessions(db, now), throttle: await purgeLoginThrottle(db, now) };
}

export const sessionInfo = (p: Principal): SessionInfo => ({
  email: p.account.email,
  domain: p.domain,
  isPostmaster: p.isPostmaster,
});

// --- cookies ---

export interface SessionCookie {
  /** The id of the one session cookie of the request's scheme, or null. */
  id: string | null;
  /** More than one session cookie (of either name): the request is refused as if it had no session. */
  several: boolean;
}

export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export function readSessionCookie(req: Request): SessionCookie {
  return parseSessionCookies(req.headers.get("cookie"), isHttps(req));
}

export function parseSessionCookies(header: string | null, secure: boolean): SessionCookie {
  let count = 0;
  let id: string | null = null;
  const wanted = sessionCookieName(secure);
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name !== SESSION_COOKIE && name !== SECURE_SESSION_COOKIE) continue;
    count++;
    if (name === wanted) id = part.slice(eq + 1).trim() || null;
  }
  return count > 1 ? { id: null, several: true } : { id, several: false };
}

/** The session id of a request, or null (none, or several cookies). */
export function readSessionId(req: Request): string | null {
  return readSessionCookie(req).id;
}

/** https directly, or behind a TLS-terminating proxy that says so. */
export function isHttps(req: Request): boolean {
  return new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
}

export function sessionCookie(id: string, secure: boolean): string {
  // No Max-Age: a browser-session cookie; the server enforces idle and absolute expiry.
  return `${sessionCookieName(secure)}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${sessionCookieName(secure)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}
