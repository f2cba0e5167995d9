// `db reencrypt` (lib/cli/reencrypt.ts): after a new TOTP_ENCRYPTION_KEY and SMS_SECRET_KEY, the TOTP secret and
// the SMS password written under the old keys read again under the new ones; a second run changes nothing; a value
// under neither key is named and left as it was.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { accounts, accountTotp } from "@/db/schema";
import { decryptSmsPassword, encryptSmsPassword } from "@/lib/mailserver/sms/secret";
import { encryptSecret, verifySecondFactor, TwoFactorError } from "@/lib/server/caller/totp";
import { totpAt } from "@/lib/server/caller/totp-code";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { FailedWithReport, UsageError } from "./args";
import { runCommand } from "./commands";

vi.mock("server-only", () => ({}));

const D = "rekey.test";
const key = () => randomBytes(32);
const [oldTotp, newTotp, oldSms, newSms, stray] = [key(), key(), key(), key(), key()];
const secret = randomBytes(20);
let dir: string;
let db: Db;
const postmaster = async () => getAccountOrThrow(db, await getDomainOrThrow(db, D), "postmaster");
const smsOf = async () =>
  (
    await db
      .select({ p: accounts.smsPassword1 })
      .from(accounts)
      .where(eq(accounts.email, `postmaster@${D}`))
  )[0]!.p;
const run = (env: Record<string, string>) => {
  Object.assign(process.env, env);
  return runCommand(db, ["db", "reencrypt"]);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-reencrypt-"));
  process.env.DATABASE_PATH = path.join(dir, "mail.db");
  // The new keys, as the environment holds them after the rotation.
  process.env.TOTP_ENCRYPTION_KEY = newTotp.toString("hex");
  process.env.SMS_SECRET_KEY = newSms.toString("hex");
  db = openDatabase(process.env.DATABASE_PATH);
  await runCommand(db, ["domain", "add", D, "--postmaster-password", "Test-pass1"]);
  const account = await postmaster();
  // Written under the old keys, before the rotation.
  await db
    .insert(accountTotp)
    .values({ accountId: account.id, secret: encryptSecret(secret, oldTotp), enabledAt: Date.now() });
  await db
    .update(accounts)
    .set({ smsPassword1: encryptSmsPassword("gateway-pass", oldSms) })
    .where(eq(accounts.id, account.id));
});

afterAll(() => {
  db?.$client.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("db reencrypt", () => {
  it("before it, the right code fails with an error that is not the panel's (the API's 500)", async () => {
    const err = await verifySecondFactor(db, await postmaster(), totpAt(secret)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(TwoFactorError);
    const stored = await smsOf();
    expect(() => decryptSmsPassword(stored)).toThrow();
  });

  it("asks for an old key", async () => {
    await expect(runCommand(db, ["db", "reencrypt"])).rejects.toThrow(UsageError);
  });

  it("writes the values again under the new keys; a second run changes nothing", async () => {
    const out = await run({
      TOTP_ENCRYPTION_KEY_OLD: oldTotp.toString("hex"),
      SMS_SECRET_KEY_OLD: oldSms.toString("base64"),
    });
    expect(out).toBe(
      "TOTP secrets: 1 re-encrypted, 0 already under the new key, 0 unreadable\n" +
        "SMS passwords: 1 re-encrypted, 0 already under the new key, 0 unreadable",
    );
    expect(await verifySecondFactor(db, await postmaster(), totpAt(secret))).toBe("totp");
    expect(decryptSmsPassword(await smsOf())).toBe("gateway-pass");
    expect(await run({})).toBe(
      "TOTP secrets: 0 re-encrypted, 1 already under the new key, 0 unreadable\n" +
        "SMS passwords: 0 re-encrypted, 1 already under the new key, 0 unreadable",
    );
  });

  it("names a value that reads with neither key and leaves it", async () => {
    const account = await postmaster();
    const foreign = encryptSmsPassword("other", stray);
    await db.update(accounts).set({ smsPassword1: foreign }).where(eq(accounts.id, account.id));
    const err = await run({}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailedWithReport);
    expect((err as FailedWithReport).output).toContain(`unreadable: postmaster@${D} (sms_password_1)`);
    expect(await smsOf()).toBe(foreign);
  });

  it("reads only the accounts holding an encrypted SMS password, not every account", async () => {
    // A provider's million accounts, few with an SMS gateway: reading every account held them all in memory (402 MB
    // of RSS at 1,185,601 accounts and not one SMS password, on PostgreSQL, 2026-12-02).
    const domainId = (await getDomainOrThrow(db, D)).id;
    const many = Array.from({ length: 2_000 }, (_, i) => `user${i}`);
    for (let i = 0; i < many.length; i += 200)
      await db.insert(accounts).values(
        many.slice(i, i + 200).map((name) => ({
          domainId,
          name,
          email: `${name}@${D}`,
          searchKey: name,
          passwordHash: "x",
          mailPasswordHash: "x",
        })),
      );
    await db
      .update(accounts)
      .set({ smsPassword1: encryptSmsPassword("gateway-pass", newSms) })
      .where(eq(accounts.id, (await postmaster()).id));
    // Every row any statement of the command hands to JavaScript, on any connection (a transaction has its own).
    const statements = Object.getPrototypeOf(db.$client.prepare("SELECT 1")) as { all: (...p: unknown[]) => unknown[] };
    const all = statements.all;
    let rows = 0;
    const spy = vi.spyOn(statements, "all").mockImplementation(function (this: unknown, ...params: unknown[]) {
      const result = all.apply(this, params);
      rows += result.length;
      return result;
    });
    try {
      expect(await run({ TOTP_ENCRYPTION_KEY_OLD: "", SMS_SECRET_KEY_OLD: oldSms.toString("hex") })).toBe(
        "SMS passwords: 0 re-encrypted, 1 already under the new key, 0 unreadable",
      );
    } finally {
      spy.mockRestore();
    }
    expect(rows).toBeLessThan(10);
  });

  it("refuses an old key that is the one in use", async () => {
    await expect(run({ TOTP_ENCRYPTION_KEY_OLD: newTotp.toString("hex"), SMS_SECRET_KEY_OLD: "" })).rejects.toThrow(
      /the key in use/,
    );
  });
});
