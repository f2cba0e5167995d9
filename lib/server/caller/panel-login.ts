import "server-only";
// Signing in to the panel: the very authentication of /api/v1 (throttle, blocked/expired refusal, last_auth_*),
// plus one refinement for the login form. /api/v1 answers a blocked or expired account like a wrong password; the
// panel tells the user which it is, but only to someone who proved the password, so it leaks nothing new.
import type { Db } from "@/db/client";
import { authenticate, type Principal } from "./auth";
import { deviceIdFor } from "./device-cookie";

export interface LoginCredentials {
  email: string;
  digest: string;
  /** The password as typed: read only at an imported account's first sign-in (lib/server/caller/auth.ts). */
  password?: string;
}

export function readCredentials(body: Record<string, unknown>): LoginCredentials {
  const text = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : "");
  const password = typeof body.password === "string" ? body.password : undefined;
  return { email: text(body.email), digest: text(body.digest), ...(password === undefined ? {} : { password }) };
}

/** Signs in; a genuine device cookie for the account exempts it from the account's lock (lib/server/caller/device-cookie.ts). */
export async function panelLogin(
  db: Db,
  creds: LoginCredentials,
  clientIp: string,
  deviceToken: string | null,
): Promise<Principal> {
  const deviceId = await deviceIdFor(db, deviceToken, creds.email);
  return authenticate(db, creds, clientIp, { revealRefusal: true, deviceId });
}
