import "server-only";
// One-click unsubscription (RFC 8058): every copy of a post carries its own https link,
// <PUBLIC_URL>/unsubscribe/<list id>.<address, base64url>.<HMAC-SHA256 of both>, and a POST of
// `List-Unsubscribe=One-Click` to it unsubscribes that subscriber at once. The link is signed, not stored:
// 10,000 copies of a post would otherwise write 10,000 token rows (and a table that grows with every post), while
// a signature costs a hash and nothing in the database; it names one list and one address and cannot be made
// for another without the key. The key is a random 256-bit value in `server_secrets`, made at first use, so every
// process signs and checks alike; deleting that row (the next use makes a new one) voids every link sent so far.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { serverSecrets } from "@/db/schema";
import { withTransaction } from "@/db/transaction";

const KEY_NAME = "list_unsubscribe_key";
const keys = new WeakMap<Db, Buffer>();

async function key(db: Db): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    await withTransaction(db, (tx) =>
      tx
        .insert(serverSecrets)
        .values({ name: KEY_NAME, value: randomBytes(32).toString("base64") })
        .onConflictDoNothing()
        .execute(),
    );
    const [row] = await db
      .select({ value: serverSecrets.value })
      .from(serverSecrets)
      .where(eq(serverSecrets.name, KEY_NAME));
    k = Buffer.from(row!.value, "base64");
    keys.set(db, k);
  }
  return k;
}

const mac = async (db: Db, listId: number, address: string) =>
  createHmac("sha256", await key(db))
    .update(`unsubscribe\n${listId}\n${address}`)
    .digest();

/** The one-click token of `address` on the list `listId` (the last path segment of its link). */
export async function unsubscribeToken(db: Db, listId: number, address: string): Promise<string> {
  return `${listId}.${Buffer.from(address).toString("base64url")}.${(await mac(db, listId, address)).toString("base64url")}`;
}

/** The list and address a token names, when its signature is this service's; else undefined. */
export async function readUnsubscribeToken(
  db: Db,
  token: string,
): Promise<{ listId: number; address: string } | undefined> {
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{1,1400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const listId = Number(m[1]);
  const address = Buffer.from(m[2]!, "base64url").toString();
  const given = Buffer.from(m[3]!, "base64url");
  const expected = await mac(db, listId, address);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { listId, address } : undefined;
}
