import "server-only";
// Device cookies (OWASP "Slow Brute Force Protection Using Device Cookies"): a browser that has signed in to an
// account gets a cookie naming that account and a random device id, signed with a key of the service. Its later
// sign-ins to that account are exempt from the account's lock and throttled per device instead
// (lib/server/caller/login-throttle.ts), so an attacker guessing the password cannot lock the real user out of the panel.
// The key is the service's own (lib/server/store/server-key.ts).
import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { isServerMac, serverMac } from "@/lib/server/store/server-key";

export const DEVICE_COOKIE = "mailadmin_device";
export const SECURE_DEVICE_COOKIE = "__Host-mailadmin_device";
const MAX_AGE_SECONDS = 180 * 24 * 3600;
const KEY_NAME = "device_cookie_key";

const signed = (email: string, id: string) => `${email}\n${id}`;

/** A new device cookie's value for an account that has just signed in. */
export async function newDeviceToken(db: Db, email: string): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  return `${Buffer.from(email).toString("base64url")}.${id}.${await serverMac(db, KEY_NAME, signed(email, id))}`;
}

/** The device id when the token is genuine and names this account; null otherwise. */
export async function deviceIdFor(db: Db, token: string | null, email: string): Promise<string | null> {
  if (!token) return null;
  const [who, id, mac] = token.split(".");
  if (!who || !id || !mac || Buffer.from(who, "base64url").toString() !== email) return null;
  return (await isServerMac(db, KEY_NAME, signed(email, id), mac)) ? id : null;
}

const cookieName = (secure: boolean) => (secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE);

export function readDeviceToken(req: Request, secure: boolean): string | null {
  const wanted = cookieName(secure);
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === wanted) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

export function deviceCookie(token: string, secure: boolean): string {
  return `${cookieName(secure)}=${token}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}
