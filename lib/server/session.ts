import "server-only";
// Panel sessions (backend-for-frontend). The browser holds only a random 256-bit id in an httpOnly, SameSite=Strict
// cookie; the account address and the SHA-1 digest the BFF authenticates with stay here, server-side.
//
// Why in memory rather than a `sessions` table: the service runs as one Node process (lib/runtime/server.mjs), a
// digest should not sit on disk next to the hashes it unlocks, and losing the sessions on a restart only means
// signing in again. The Map lives on globalThis because Next may load this module once per route bundle.
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { authenticate, type Principal } from "./auth";
import { sha1Hex } from "./password";

export const SESSION_COOKIE = "mailadmin_session";
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
const MAX_SESSIONS = 50_000;

export interface Session {
  id: string;
  email: string;
  domain: string;
  isPostmaster: boolean;
  /** SHA-1 hex digest of the password: what /api/v1 authenticates with. Never sent to the browser. */
  digest: string;
  createdAt: number;
  lastSeenAt: number;
}

/** What page JS may know about its session. */
export interface SessionInfo {
  email: string;
  domain: string;
  isPostmaster: boolean;
}

const holder = globalThis as { __mailadminSessions?: Map<string, Session> };
const sessions = (holder.__mailadminSessions ??= new Map<string, Session>());

const isExpired = (s: Session, now: number) =>
  now - s.lastSeenAt > IDLE_TIMEOUT_MS || now - s.createdAt > ABSOLUTE_TIMEOUT_MS;

function sweep(now: number) {
  for (const [id, s] of sessions) if (isExpired(s, now)) sessions.delete(id);
  // Still full (many live sessions): drop the oldest, Map keeps insertion order.
  while (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
}

export function createSession(principal: Principal, digest: string, now = Date.now()): Session {
  sweep(now);
  const session: Session = {
    id: randomBytes(32).toString("base64url"),
    email: principal.account.email,
    domain: principal.domain,
    isPostmaster: principal.isPostmaster,
    digest,
    createdAt: now,
    lastSeenAt: now,
  };
  sessions.set(session.id, session);
  return session;
}

/** The live session with this id, its idle timer restarted; null when unknown or expired. */
export function getSession(id: string | undefined | null, now = Date.now()): Session | null {
  if (!id) return null;
  const session = sessions.get(id);
  if (!session) return null;
  if (isExpired(session, now)) {
    sessions.delete(id);
    return null;
  }
  session.lastSeenAt = now;
  return session;
}

export function destroySession(id: string | undefined | null): void {
  if (id) sessions.delete(id);
}

/** After the signed-in user changes their own password, the BFF keeps authenticating with the new digest. */
export function replaceSessionDigest(session: Session, password: string): void {
  session.digest = sha1Hex(password);
}

/**
 * Re-checks a session's credentials with the service's own authentication (blocked, expired, password changed
 * elsewhere); a session whose credentials no longer pass is ended.
 */
export function verifySession(db: Db, session: Session, clientIp: string): Principal | null {
  try {
    return authenticate(db, { email: session.email, digest: session.digest }, clientIp);
  } catch {
    destroySession(session.id);
    return null;
  }
}

export const sessionInfo = (s: Session): SessionInfo => ({ email: s.email, domain: s.domain, isPostmaster: s.isPostmaster });

// --- cookies ---

export function readSessionId(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** https directly, or behind a TLS-terminating proxy that says so. */
export function isHttps(req: Request): boolean {
  return new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
}

export function sessionCookie(id: string, secure: boolean): string {
  // No Max-Age: a browser-session cookie; the server enforces idle and absolute expiry.
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}
