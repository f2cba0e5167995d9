import "server-only";
// A list's VERP bounce addresses are signed: <list>-bounces+<signature>=<user>=<host>@<domain>, the signature an
// HMAC-SHA256 over the list's address and the subscriber's, cut to 80 bits and written in lowercase base32 (local
// parts are case-folded on the way: Postfix's tables and the list service read them in lower case). Unsigned, anyone
// could send a "bounce" for any subscriber and make the postmaster take a working address off a list. The policy
// service refuses an unsigned or badly signed one at RCPT, while the sender is connected, and the list service checks
// again before it records a bounce (docs/lists.md, Envelope, copies and bounces).
import { timingSafeEqual } from "node:crypto";
import type { Db } from "@/db/client";
import { base32Encode } from "@/lib/server/caller/totp-code";
import { serverHmac } from "@/lib/server/store/server-key";

const KEY_NAME = "list_bounce_key";
export const BOUNCE_MARK = "-bounces+";
/** 16 characters of base32: 80 bits, to be guessed one RCPT at a time. */
const SIGNATURE_BYTES = 10;
const SIGNATURE_RE = /^[a-z2-7]{16}$/;

async function signature(db: Db, list: string, subscriber: string): Promise<string> {
  const mac = await serverHmac(db, KEY_NAME, `bounce\n${list.toLowerCase()}\n${subscriber.toLowerCase()}`);
  return base32Encode(mac.subarray(0, SIGNATURE_BYTES)).toLowerCase();
}

/** The signed VERP bounce address of one subscriber of `list` (its address, name@domain). */
export async function verpAddress(
  db: Db,
  list: { name: string; domain: string; email: string },
  subscriber: string,
): Promise<string> {
  const at = subscriber.lastIndexOf("@");
  const sig = await signature(db, list.email, subscriber);
  return `${list.name}${BOUNCE_MARK}${sig}=${subscriber.slice(0, at)}=${subscriber.slice(at + 1)}@${list.domain}`;
}

/**
 * The list address (name@domain) an address names as `<name>-bounces+<anything>@<domain>`, and that anything: whether
 * such a list exists is the caller's question. Undefined for any other address.
 */
export function bounceParts(address: string): { list: string; verp: string } | undefined {
  const email = address.toLowerCase();
  const at = email.lastIndexOf("@");
  if (at < 0) return undefined;
  const local = email.slice(0, at);
  const mark = local.indexOf(BOUNCE_MARK);
  if (mark <= 0) return undefined;
  return { list: `${local.slice(0, mark)}${email.slice(at)}`, verp: local.slice(mark + BOUNCE_MARK.length) };
}

/**
 * The subscriber a bounce address's part after `-bounces+` (`<signature>=<user>=<host>`) names, when its signature is
 * this server's for `list`; undefined when it is unsigned, malformed or signed for another list or address.
 */
export async function signedSubscriber(db: Db, list: string, verp: string): Promise<string | undefined> {
  const first = verp.indexOf("=");
  const last = verp.lastIndexOf("=");
  if (first < 0 || last <= first + 1 || last === verp.length - 1) return undefined;
  const given = verp.slice(0, first);
  if (!SIGNATURE_RE.test(given)) return undefined;
  const subscriber = `${verp.slice(first + 1, last)}@${verp.slice(last + 1)}`;
  // In constant time: a comparison that stops at the first wrong character would let the signature be found one
  // character at a time.
  return timingSafeEqual(Buffer.from(await signature(db, list, subscriber)), Buffer.from(given))
    ? subscriber
    : undefined;
}
