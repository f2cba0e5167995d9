import "server-only";
// Signing in to the panel: the very authentication of /api/v1 (lockout, blocked/expired refusal, last_auth_*),
// plus one refinement for the login form. /api/v1 answers a blocked or expired account like a wrong password; the
// panel tells the user which it is, but only to someone who proved the password, so it leaks nothing new.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { ApiError } from "@/lib/errors/api-error";
import { authenticate, isLoginRefused, today, type Principal } from "./auth";
import { verifyDigest } from "./password";

export interface LoginCredentials {
  email: string;
  digest: string;
}

export function readCredentials(body: Record<string, unknown>): LoginCredentials {
  const text = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : "");
  return { email: text(body.email), digest: text(body.digest) };
}

export function panelLogin(db: Db, creds: LoginCredentials, clientIp: string): Principal {
  try {
    return authenticate(db, creds, clientIp);
  } catch (err) {
    if (err instanceof ApiError && err.key === "badCredentials") {
      const reason = refusalReason(db, creds);
      if (reason) throw new ApiError("badCredentials", { attributes: { reason } });
    }
    throw err;
  }
}

/** "blocked" or "expired" when the password is right but the account may not sign in; null otherwise. */
function refusalReason(db: Db, creds: LoginCredentials): "blocked" | "expired" | null {
  if (!/^[0-9a-f]{40}$/.test(creds.digest)) return null;
  const account = db.select().from(accounts).where(eq(accounts.email, creds.email)).get();
  if (!account || !isLoginRefused(account, today())) return null;
  if (!verifyDigest(creds.digest, account.passwordHash)) return null;
  return account.blocked === 1 ? "blocked" : "expired";
}
