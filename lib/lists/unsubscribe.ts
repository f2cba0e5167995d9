import "server-only";
// One-click unsubscription (RFC 8058): every copy of a post carries its own https link,
// <PUBLIC_URL>/unsubscribe/<list id>.<address, base64url>.<HMAC-SHA256 of both>, and a POST of
// `List-Unsubscribe=One-Click` to it unsubscribes that subscriber at once. The link is signed, not stored:
// 10,000 copies of a post would otherwise write 10,000 token rows (and a table that grows with every post), while
// a signature costs a hash and nothing in the database; it names one list and one address and cannot be made
// for another without the key. The key is the service's own (lib/server/store/server-key.ts): deleting
// its row voids every link sent so far.
import type { Db } from "@/db/client";
import { isServerMac, serverMac } from "@/lib/server/store/server-key";

const KEY_NAME = "list_unsubscribe_key";
const signed = (listId: number, address: string) => `unsubscribe\n${listId}\n${address}`;

/** The one-click token of `address` on the list `listId` (the last path segment of its link). */
export async function unsubscribeToken(db: Db, listId: number, address: string): Promise<string> {
  return `${listId}.${Buffer.from(address).toString("base64url")}.${await serverMac(db, KEY_NAME, signed(listId, address))}`;
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
  return (await isServerMac(db, KEY_NAME, signed(listId, address), m[3]!)) ? { listId, address } : undefined;
}
