import "server-only";
// Two-step sign-in to the panel: TOTP (RFC 6238: HMAC-SHA-1, 30-second steps, 6 digits, the RFC 4226
// truncation), a QR code of the otpauth:// URI for the phone's app (drawn by the `qrcode` package), and ten
// one-time recovery codes. The /api/v1 Basic protocol is untouched: this is the panel's sign-in only.
//
// Storage: the secret encrypted with AES-256-GCM under TOTP_ENCRYPTION_KEY (never in the clear, so a copy of the
// database alone does not give the codes); recovery codes as SHA-256 only. A code is accepted within one step of
// the server's clock, and never twice (the last accepted step is kept). Sign-in: the password checked, a second
// step pending is a `login_challenges` row whose id the browser holds in an httpOnly cookie for 5 minutes, 5
// tries; then the session is created as before. Wrong codes are counted per account in `login_throttle` like wrong
// passwords (same back-off and lock), in rows of their own that a right password does not clear, so new
// challenges buy no guesses.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import QRCode from "qrcode";
import { changedRows, forUpdate, withTransaction } from "@/db/transaction";
import type { Db } from "@/db/client";
import {
  accounts,
  accountTotp,
  domainPolicies,
  domains,
  loginChallenges,
  loginThrottle,
  totpRecoveryCodes,
  type AccountRow,
} from "@/db/schema";
import { panelErrors } from "@/lib/errors/panel-errors";
import { ApiError } from "@/lib/errors/api-error";
import { failureGate, lockedFor } from "./login-throttle";
import { recordChange } from "../resources/audit";
import { env } from "../env";
import { base32Encode, DIGITS, matchStep, STEP_SECONDS } from "./totp-code";

const RECOVERY_CODES = 10;
const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_TRIES = 5;
const ISSUER = "Panel poczty";

// --- the secret at rest ---
/** A TOTP_ENCRYPTION_KEY value as the key (64 hex digits or base64 of 32 bytes); null when it is not one. */
export function totpKeyFrom(raw: string): Buffer | null {
  const k = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  return k.length === 32 ? k : null;
}
function key(): Buffer {
  const k = totpKeyFrom(env().TOTP_ENCRYPTION_KEY ?? "");
  if (!k) throw new TwoFactorError("notConfigured");
  return k;
}
/** Whether TOTP_ENCRYPTION_KEY holds a key: without one the panel offers no set-up and says why. */
export function isConfigured(): boolean {
  try {
    key();
    return true;
  } catch {
    return false;
  }
}
export function encryptSecret(secret: Buffer, withKey: Buffer = key()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", withKey, iv);
  const ct = Buffer.concat([cipher.update(secret), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), ct.toString("base64")].join(".");
}
export function decryptSecret(stored: string, withKey: Buffer = key()): Buffer {
  const [v, iv, tag, ct] = stored.split(".");
  if (v !== "v1" || !iv || !tag || !ct) throw new Error("unknown TOTP secret format");
  const decipher = createDecipheriv("aes-256-gcm", withKey, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ct, "base64")), decipher.final()]);
}

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
/** A recovery code as typed: lowercase, no spaces or dashes. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/** The panel's 2FA failures (lib/errors/panel-errors.ts holds their bodies). */
export class TwoFactorError extends Error {
  constructor(
    readonly reason:
      "notConfigured" | "badCode" | "badSetupCode" | "codeUsed" | "noChallenge" | "required" | "notSetUp",
  ) {
    super(reason);
  }
}

// --- state ---
export interface TwoFactorState {
  enabled: boolean;
  /** The operator requires it of this account (postmasters of a domain with --require-2fa). */
  required: boolean;
  recoveryLeft: number;
}

const totpRow = async (db: Db, accountId: number) =>
  (await db.select().from(accountTotp).where(eq(accountTotp.accountId, accountId)).limit(1))[0];

export async function isRequired(db: Db, account: Pick<AccountRow, "name" | "domainId">): Promise<boolean> {
  if (account.name !== "postmaster") return false;
  const [policy] = await db.select().from(domainPolicies).where(eq(domainPolicies.domainId, account.domainId)).limit(1);
  return policy?.require2fa === 1;
}

export async function twoFactorState(db: Db, account: AccountRow): Promise<TwoFactorState> {
  const row = await totpRow(db, account.id);
  const left = (
    await db
      .select({ usedAt: totpRecoveryCodes.usedAt })
      .from(totpRecoveryCodes)
      .where(eq(totpRecoveryCodes.accountId, account.id))
  ).filter((r) => r.usedAt === 0).length;
  return { enabled: !!row && row.enabledAt > 0, required: await isRequired(db, account), recoveryLeft: left };
}

/** Starts (or restarts) a set-up: a new secret, not yet enabled, and what the phone's app needs. */
export async function beginSetup(db: Db, account: AccountRow): Promise<{ secret: string; uri: string; qrSvg: string }> {
  const secret = randomBytes(20);
  const stored = encryptSecret(secret);
  await withTransaction(db, async (tx) => {
    const existing = await totpRow(tx, account.id);
    if (existing && existing.enabledAt > 0) throw new TwoFactorError("badCode");
    await tx
      .insert(accountTotp)
      .values({ accountId: account.id, secret: stored, enabledAt: 0, lastStep: 0 })
      .onConflictDoUpdate({ target: accountTotp.accountId, set: { secret: stored, enabledAt: 0, lastStep: 0 } });
  });
  const b32 = base32Encode(secret);
  const label = encodeURIComponent(`${ISSUER}:${account.email}`);
  const uri = `otpauth://totp/${label}?secret=${b32}&issuer=${encodeURIComponent(ISSUER)}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return { secret: b32, uri, qrSvg };
}

/** Confirms a set-up with a code from the app: enables it and answers the ten recovery codes (shown once). */
export async function confirmSetup(db: Db, account: AccountRow, code: string, now = Date.now()): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = base32Encode(randomBytes(7)).toLowerCase().slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await withTransaction(db, async (tx) => {
    const row = await totpRow(tx, account.id);
    if (!row || row.enabledAt > 0) throw new TwoFactorError("notSetUp");
    const step = matchStep(decryptSecret(row.secret), code.trim(), now);
    if (step === null) throw new TwoFactorError("badSetupCode");
    await tx.update(accountTotp).set({ enabledAt: now, lastStep: step }).where(eq(accountTotp.accountId, account.id));
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.accountId, account.id));
    await tx
      .insert(totpRecoveryCodes)
      .values(codes.map((c) => ({ accountId: account.id, codeHash: sha256(normalizeRecovery(c)) })));
    await recordChange(tx, {
      domain: await domainName(tx, account.domainId),
      action: "create",
      resource: "account_security",
      names: [account.name],
      changes: { totp: { old: "off", new: "on" } },
    });
  });
  return codes;
}

/** A code from the app (never the same step twice) or an unused recovery code (spent by this). */
export function verifySecondFactor(
  db: Db,
  account: AccountRow,
  code: string,
  now = Date.now(),
): Promise<"totp" | "recovery"> {
  return withTransaction(db, async (tx) => {
    const row = await totpRow(tx, account.id);
    if (!row || row.enabledAt === 0) throw new TwoFactorError("notSetUp");
    const typed = code.trim();
    if (/^\d{6}$/.test(typed)) {
      const step = matchStep(decryptSecret(row.secret), typed, now);
      // The step moves only forward, in one statement: two sign-ins with one code cannot both pass.
      if (step === null) throw new TwoFactorError("badCode");
      const moved = await tx
        .update(accountTotp)
        .set({ lastStep: step })
        .where(and(eq(accountTotp.accountId, account.id), lt(accountTotp.lastStep, step)));
      // The right code, but its step was used already (a second sign-in within the same 30 s).
      if (changedRows(tx, moved) !== 1) throw new TwoFactorError("codeUsed");
      return "totp";
    }
    const spent = await tx
      .update(totpRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(totpRecoveryCodes.accountId, account.id),
          eq(totpRecoveryCodes.codeHash, sha256(normalizeRecovery(typed))),
          eq(totpRecoveryCodes.usedAt, 0),
        ),
      );
    if (changedRows(tx, spent) !== 1) throw new TwoFactorError("badCode");
    return "recovery";
  });
}

/** The `login_throttle` address under which an account's wrong codes are counted (apart from its passwords'). */
export const codeThrottleKey = (email: string) => `2fa:${email}`;

/**
 * A code checked under the account's code lock: during the lock no code is checked (403.1 with retry_after, as a
 * password lock answers); a wrong code counts a failure, a right one clears the account's (or this device's) count.
 * `deviceId`: a genuine device cookie of this account, locked by its own failures only (as for passwords).
 */
export async function checkCode(
  db: Db,
  account: AccountRow,
  code: string,
  clientIp: string,
  deviceId: string | null = null,
  now = Date.now(),
): Promise<"totp" | "recovery"> {
  const gate = await failureGate(db, clientIp, codeThrottleKey(account.email), deviceId, now);
  // Counted before the code is read, so that any number of guesses at once get no more than the lock allows.
  const lockedSeconds = gate.lockedFor || (await gate.reserve());
  if (lockedSeconds > 0) throw new ApiError("tooManyFailures", { attributes: { retry_after: lockedSeconds } });
  let kind: "totp" | "recovery";
  try {
    kind = await verifySecondFactor(db, account, code, now);
  } catch (err) {
    if (err instanceof TwoFactorError && err.reason === "badCode") await gate.failAddress();
    throw err;
  }
  await gate.succeed();
  return kind;
}

/** Turns 2FA off with a current code (or a recovery code); refused while the operator requires it. */
export async function disable(
  db: Db,
  account: AccountRow,
  code: string,
  clientIp: string,
  now = Date.now(),
): Promise<void> {
  if (await isRequired(db, account)) throw new TwoFactorError("required");
  await checkCode(db, account, code, clientIp, null, now);
  await removeSecondStep(db, account);
}

/** Deletes an account's second step (its secret and recovery codes) and the lock of its wrong codes; audited. */
export async function removeSecondStep(
  db: Db,
  account: Pick<AccountRow, "id" | "name" | "email" | "domainId">,
): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const had = changedRows(tx, await tx.delete(accountTotp).where(eq(accountTotp.accountId, account.id))) > 0;
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.accountId, account.id));
    await tx.delete(loginThrottle).where(eq(loginThrottle.email, codeThrottleKey(account.email)));
    if (had)
      await recordChange(tx, {
        domain: await domainName(tx, account.domainId),
        action: "delete",
        resource: "account_security",
        names: [account.name],
        changes: { totp: { old: "on", new: "off" } },
      });
    return had;
  });
}

/** What the domain's administrator sees of an account's sign-in: its second step and both locks (seconds left). */
export async function signInState(db: Db, account: AccountRow, now = Date.now()) {
  return {
    two_factor: (await twoFactorState(db, account)).enabled,
    password_locked_for: await lockedFor(db, account.email, now),
    code_locked_for: await lockedFor(db, codeThrottleKey(account.email), now),
  };
}

const domainName = async (db: Db, id: number) =>
  (await db.select({ name: domains.name }).from(domains).where(eq(domains.id, id)).limit(1))[0]?.name ?? "";

// --- the sign-in's second step ---
export const CHALLENGE_COOKIE = "mail_panel_2fa";

/** After the password: does this account need a second step, and is it set up (or must it set up now)? */
export async function secondStepNeeded(db: Db, account: AccountRow): Promise<"none" | "code" | "setup"> {
  const state = await twoFactorState(db, account);
  if (state.enabled) return "code";
  return state.required ? "setup" : "none";
}

/** A pending second step; answers the id for the browser's cookie. */
export async function createChallenge(
  db: Db,
  account: AccountRow,
  clientIp: string,
  now = Date.now(),
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await withTransaction(db, async (tx) => {
    await tx.delete(loginChallenges).where(lt(loginChallenges.createdAt, now - CHALLENGE_TTL_MS));
    await tx.insert(loginChallenges).values({ idHash: sha256(id), accountId: account.id, clientIp, createdAt: now });
  });
  return id;
}

/** The account of a live challenge from this client address, counting a try; null when there is none. */
export function challengeAccount(
  db: Db,
  id: string | null,
  clientIp: string,
  now = Date.now(),
): Promise<AccountRow | null> {
  if (!id) return Promise.resolve(null);
  return withTransaction(db, async (tx) => {
    const [row] = await forUpdate(
      tx,
      tx
        .select()
        .from(loginChallenges)
        .where(eq(loginChallenges.idHash, sha256(id))),
    );
    if (!row || row.createdAt < now - CHALLENGE_TTL_MS || row.clientIp !== clientIp || row.attempts >= CHALLENGE_TRIES)
      return null;
    await tx
      .update(loginChallenges)
      .set({ attempts: row.attempts + 1 })
      .where(eq(loginChallenges.idHash, row.idHash));
    return (await tx.select().from(accounts).where(eq(accounts.id, row.accountId)).limit(1))[0] ?? null;
  });
}

export async function endChallenge(db: Db, id: string | null): Promise<void> {
  if (id)
    await withTransaction(db, (tx) =>
      tx
        .delete(loginChallenges)
        .where(eq(loginChallenges.idHash, sha256(id)))
        .execute(),
    );
}

export function challengeCookie(id: string, https: boolean): string {
  return `${CHALLENGE_COOKIE}=${id}; Path=/api/panel/; HttpOnly; SameSite=Strict; Max-Age=${CHALLENGE_TTL_MS / 1000}${https ? "; Secure" : ""}`;
}
export const clearedChallengeCookie = (https: boolean) =>
  `${CHALLENGE_COOKIE}=; Path=/api/panel/; HttpOnly; SameSite=Strict; Max-Age=0${https ? "; Secure" : ""}`;

export function readChallengeId(req: Request): string | null {
  const cookie = req.headers.get("cookie") ?? "";
  for (const part of cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === CHALLENGE_COOKIE) return v.join("=") || null;
  }
  return null;
}

/** The operator's switch (`domain set --require-2fa`). */
export async function setRequire2fa(db: Db, domainId: number, domain: string, on: boolean): Promise<void> {
  await withTransaction(db, async (tx) => {
    const [policy] = await tx.select().from(domainPolicies).where(eq(domainPolicies.domainId, domainId)).limit(1);
    const old = policy?.require2fa ?? 0;
    await tx
      .insert(domainPolicies)
      .values({ domainId, require2fa: on ? 1 : 0 })
      .onConflictDoUpdate({ target: domainPolicies.domainId, set: { require2fa: on ? 1 : 0 } });
    await recordChange(tx, {
      domain,
      action: "update",
      resource: "domain",
      names: [domain],
      changes: old === (on ? 1 : 0) ? {} : { require_2fa: { old, new: on ? 1 : 0 } },
    });
  });
}

export { panelErrors };
