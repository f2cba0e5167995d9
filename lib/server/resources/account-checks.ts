import "server-only";
// The rules an account write is checked against: the password and its retype, limits, protected fields.
import type { Db } from "@/db/client";
import type { AccountRow } from "@/db/schema";
import { apiError } from "@/lib/errors/api-error";
import { accountFields, RESTRICTED_ACCOUNT_FIELDS, type AccountUpdate } from "@/lib/schemas/account";
import { camel } from "@/lib/schemas/fields";
import { today } from "../caller/auth";
import { mailPasswordHash, mailPasswordHashAsync } from "@/lib/mailserver/sha512-crypt";
import { hashDigest, hashDigestAsync, sha1Hex } from "../caller/password";
import { effectiveLimits } from "./customers";

/**
 * The hashes of a body's new password, the API's scrypt (off the event loop) and the mail server's SHA512-crypt (in
 * turns of the loop): request handlers pass them on to createAccount / updateAccounts, which then do not hash on
 * the loop. Undefined when the body sets no password.
 */
export async function prehashPassword(body: Record<string, unknown>): Promise<Prehashed | undefined> {
  const password = body.password;
  if (typeof password !== "string" || password === "") return undefined;
  const [hash, mailHash] = await Promise.all([hashDigestAsync(sha1Hex(password)), mailPasswordHashAsync(password)]);
  return { password, hash, mailHash };
}
export interface PasswordHashes {
  hash: string;
  mailHash: string;
}
export interface Prehashed extends PasswordHashes {
  password: string;
}

/**
 * Password and its retype: the new password's hashes, the API's scrypt and the mail server's SHA512-crypt
 * (docs/mail-server.md), written together; undefined when unchanged.
 */
export function passwordHashesOf(
  input: AccountUpdate,
  required: boolean,
  prehashed?: Prehashed,
): PasswordHashes | undefined {
  const password = input.password ?? "";
  // Contract §7: a non-empty retype must equal the password, an empty or missing password included (a client that
  // sends only the retype believes it changes the password).
  if (input.password_retype && input.password_retype !== password)
    throw apiError("passwordMismatch", "password_retype");
  if (password === "") {
    if (required) throw apiError("invalidPassword", "password");
    return undefined;
  }
  if (prehashed?.password === password) return { hash: prehashed.hash, mailHash: prehashed.mailHash };
  return { hash: hashDigest(sha1Hex(password)), mailHash: mailPasswordHash(password) };
}

/** Rules that depend on the stored record: limits of the owner, dates in order, no forward to itself. */
export function checkAgainstRecord(
  merged: AccountRow,
  input: AccountUpdate,
  byAdmin: boolean,
  stored: string[] = [],
): void {
  if (input.forwards) {
    if (input.forwards.includes(merged.email))
      throw apiError("invalidForward", "forwards", { invalid: [merged.email] });
    // The stored list sent back unchanged (a GET record written back whole) is not the owner setting forwards,
    // even when the administrator set more than forward_limit.
    const unchanged = input.forwards.length === stored.length && input.forwards.every((f, i) => f === stored[i]);
    if (!byAdmin && !unchanged && input.forwards.length > merged.forwardLimit) {
      throw apiError("tooManyForwards", "forwards", { forward_limit: merged.forwardLimit });
    }
  }
  const { autoresponderStartDate: start, autoresponderEndDate: end } = merged;
  if (start && end && end < start) {
    throw apiError("autoresponderEndBeforeStart", "autoresponder_end_date", { start_date: start, end_date: end });
  }
}

/**
 * Contract §7 for a body an ordinary account sends, before its fields are validated: a restricted field whose value
 * its rule refuses can never be the stored value, so it is the change the owner may not make (403.2), not an invalid
 * value the owner might correct (the field's 500.3xx). Valid values are compared with the stored ones by
 * checkRestricted.
 */
export function checkRestrictedValues(body: Record<string, unknown>): void {
  for (const field of RESTRICTED_ACCOUNT_FIELDS) {
    if (Object.hasOwn(body, field) && !accountFields[field].schema.safeParse(body[field]).success)
      throw apiError("restrictedField", field);
  }
}

export function checkRestricted(row: AccountRow, input: AccountUpdate): void {
  for (const field of RESTRICTED_ACCOUNT_FIELDS) {
    const value = input[field];
    if (value !== undefined && value !== row[camel(field) as keyof AccountRow])
      throw apiError("restrictedField", field);
  }
}

/**
 * The postmaster is never blocked and never given an expiry: a date in the future would lock the domain's only
 * administrator out once it passed. Clearing the date, or sending the stored one back (a record round trip), passes.
 */
export function checkPostmaster(row: AccountRow, input: AccountUpdate): void {
  if (row.name !== "postmaster") return;
  if (input.blocked === 1) throw apiError("postmasterProtected", "blocked");
  const date = input.expiration_date;
  if (date && (date !== row.expirationDate || date < today())) throw apiError("postmasterProtected", "expiration_date");
}

/** The capacity limit's refusal: `before` MB were given out, `requested` MB would be after the change. */
export const capacityLimitReached = (limit: number, before: number, requested: number) =>
  apiError("capacityLimitReached", "capacity", {
    capacity_limit: limit,
    free_mb: Math.max(0, limit - before),
    requested,
  });

export async function checkCapacity(db: Db, domainId: number, before: number): Promise<void> {
  const d = await effectiveLimits(db, { id: domainId });
  if (d.capacitySum > d.capacityLimit && d.capacitySum > before)
    throw capacityLimitReached(d.capacityLimit, before, d.capacitySum);
}
