import "server-only";
// HMAC signatures with a key of the service: a random 256-bit value in `server_secrets` under its own name, made at
// first use, so every process signs and checks alike; deleting the row (the next use makes a new one) voids every
// signature made with it.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { serverSecrets } from "@/db/schema";
import { withTransaction } from "@/db/transaction";

const keys = new WeakMap<Db, Map<string, Buffer>>();

async function serverKey(db: Db, name: string): Promise<Buffer> {
  let known = keys.get(db);
  if (!known) keys.set(db, (known = new Map<string, Buffer>()));
  let k = known.get(name);
  if (!k) {
    await withTransaction(db, (tx) =>
      tx
        .insert(serverSecrets)
        .values({ name, value: randomBytes(32).toString("base64") })
        .onConflictDoNothing()
        .execute(),
    );
    const [row] = await db
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(eq(serverSecrets.name, name));
    k = Buffer.from(row!.value, "base64");
    known.set(name, k);
  }
  return k;
}

/** The HMAC-SHA256 of `text` under the service's key `keyName`, its 32 bytes (for an encoding of the caller's). */
export const serverHmac = async (db: Db, keyName: string, text: string): Promise<Buffer> =>
  createHmac("sha256", await serverKey(db, keyName))
    .update(text)
    .digest();

/** The HMAC-SHA256 of `text` under the service's key `keyName`, base64url. */
export const serverMac = async (db: Db, keyName: string, text: string): Promise<string> =>
  (await serverHmac(db, keyName, text)).toString("base64url");

/** Whether `given` is serverMac's answer for `text`, compared in constant time. */
export async function isServerMac(db: Db, keyName: string, text: string, given: string): Promise<boolean> {
  const expected = Buffer.from(await serverMac(db, keyName, text));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
