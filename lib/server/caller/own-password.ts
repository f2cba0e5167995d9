import "server-only";
// The account owner's password change from the panel. A stolen panel session must not be enough to take the
// account over, so the panel asks for the current password and this checks it the way a login is checked (the
// same authentication, so a wrong one counts towards the login lockout). The v1 API needs no such step: every
// v1 call carries the password's digest already.
import type { Db } from "@/db/client";
import { ApiError, apiError } from "@/lib/errors/api-error";
import { authenticate, type Principal } from "./auth";
import { deviceIdFor } from "./device-cookie";
import { getAccountRecordOrThrow, prehashPassword, updateAccounts, type AccountRecord } from "../resources/accounts";
import { getDomainOrThrow } from "../resources/domains";
import { sha1Hex } from "./password";

const FIELDS = ["current_password", "password", "password_retype"];

/**
 * The account signed in again with `current` (the password as typed), the way a login is checked (a wrong one counts
 * towards the lockout; a lock answers 403.1); "wrongCurrent" when it is missing or wrong. The browser's device cookie
 * (`deviceToken`) exempts it from the account's lock as at sign-in, so whoever keeps the account locked from elsewhere
 * cannot stop its owner changing the password or turning on two-step sign-in.
 */
export async function proveCurrentPassword(
  db: Db,
  email: string,
  clientIp: string,
  current: unknown,
  deviceToken: string | null = null,
): Promise<Principal | "wrongCurrent"> {
  if (typeof current !== "string" || current === "") return "wrongCurrent";
  try {
    const deviceId = await deviceIdFor(db, deviceToken, email);
    return await authenticate(db, { email, digest: sha1Hex(current), password: current }, clientIp, { deviceId });
  } catch (err) {
    if (err instanceof ApiError && err.key === "badCredentials") return "wrongCurrent";
    throw err;
  }
}

/**
 * The new record; "wrongCurrent" when the current password is missing or wrong; "unchanged" when the new password is
 * the current one (refused rather than reported as a change: the other sessions would end for nothing).
 */
export async function changeOwnPassword(
  db: Db,
  email: string,
  clientIp: string,
  body: Record<string, unknown>,
  /** The panel session making the change: it is kept, the account's other sessions end. */
  sessionIdHash?: string,
  deviceToken: string | null = null,
): Promise<AccountRecord | "wrongCurrent" | "unchanged"> {
  for (const key of Object.keys(body)) if (!FIELDS.includes(key)) throw apiError("unknownField", key);
  const principal = await proveCurrentPassword(db, email, clientIp, body.current_password, deviceToken);
  if (principal === "wrongCurrent") return principal;
  // Required here: an empty password would mean "unchanged" to the service.
  if (typeof body.password !== "string" || body.password === "") throw apiError("invalidPassword", "password");
  if (body.password === body.current_password) return "unchanged";
  const domain = await getDomainOrThrow(db, principal.domain);
  const name = principal.account.name;
  const change = { password: body.password, password_retype: body.password_retype ?? "" };
  await updateAccounts(db, { ...principal, sessionIdHash }, domain, [name], change, {
    currentPasswordProven: true,
    prehashed: await prehashPassword(change),
  });
  return getAccountRecordOrThrow(db, domain, name);
}
