import "server-only";
// How list mail is addressed: the VERP bounce address of each subscriber, and the list headers of every copy.
import type { Headers } from "mailsplit";
import { POSTER_HEADER, SENDER_VERIFIED_HEADER } from "@/lib/mailserver/antispam-config";
import { mailbox, phrase } from "./message";
import { listIdOf } from "./sendmail";
import type { ListRow, ListStore } from "./store";
import { bounceParts, signedSubscriber } from "./bounce-address";
import type { Db } from "@/db/client";

type Target =
  | { kind: "post"; list: ListRow }
  | { kind: "bounce"; list: ListRow; address: string }
  | { kind: "unsigned bounce"; list: ListRow };

/**
 * A list's address, or one of its signed VERP bounce addresses, <list>-bounces+<signature>=<user>=<host>@<domain>
 * (./bounce-address.ts), naming the subscriber; a bounce address without this server's signature is "unsigned bounce".
 */
export async function parseTarget(store: ListStore, db: Db, address: string): Promise<Target | undefined> {
  const email = address.toLowerCase();
  const list = await store.listByEmail(email);
  if (list) return { kind: "post", list };
  const parts = bounceParts(email);
  const bounceList = parts && (await store.listByEmail(parts.list));
  if (!parts || !bounceList) return undefined;
  const subscriber = await signedSubscriber(db, parts.list, parts.verp);
  return subscriber
    ? { kind: "bounce", list: bounceList, address: subscriber }
    : { kind: "unsigned bounce", list: bounceList };
}

/**
 * The headers of every copy (RFC 2369, 2919); the poster's own From goes into X-Original-From. List-Unsubscribe
 * here names the list's page; each subscriber's copy gets its own (`personalUnsubscribe`).
 */
export function listHeaders(h: Headers, list: ListRow, publicUrl: string): void {
  const raw = (line: string | undefined) => (line ? line.slice(line.indexOf(":") + 1).trim() : "");
  const originalFrom = raw(h.get("from")[0]);
  for (const key of [
    "from",
    "reply-to",
    "sender",
    "list-id",
    "list-post",
    "list-help",
    "list-unsubscribe",
    "list-unsubscribe-post",
    "list-subscribe",
    "list-owner",
    "list-archive",
    "precedence",
    "x-original-from",
    // The list address as Postfix delivered the post here; each copy gets its subscriber's.
    "x-original-to",
    "dkim-signature",
    POSTER_HEADER.toLowerCase(),
    // The poster's own verification: the copies go out with the list's envelope sender.
    SENDER_VERIFIED_HEADER.toLowerCase(),
    "return-path",
    "errors-to",
  ]) {
    h.remove(key);
  }
  const name = list.description || list.email;
  const page = `${publicUrl}/lists/${encodeURIComponent(list.email)}`;
  const replyTo =
    list.replytoMode === 1 && originalFrom
      ? originalFrom
      : list.replytoMode === 2
        ? `<${list.replytoEmail}>`
        : `<${list.email}>`;
  const added: [string, string][] = [
    ["From", mailbox(name, list.email)],
    ["Reply-To", replyTo],
    ["X-Original-From", originalFrom || "<>"],
    ["List-Id", list.description ? `${phrase(list.description)} <${listIdOf(list)}>` : `<${listIdOf(list)}>`],
    ["List-Post", `<mailto:${list.email}>`],
    ["List-Help", `<${page}>`],
    // Offered only where a subscription by mail can succeed (the list's page offers it likewise).
    ...(list.autosubscribeEnabled
      ? [["List-Subscribe", `<mailto:${list.email}?subject=subscribe>`] as [string, string]]
      : []),
    ["List-Unsubscribe", `<mailto:${list.email}?subject=unsubscribe>, <${page}>`],
    ["List-Unsubscribe-Post", "List-Unsubscribe=One-Click"],
    ["Precedence", "list"],
  ];
  // Prepended in reverse so they appear in this order, above the message's own headers.
  for (const [key, value] of added.reverse()) h.add(key, value);
}

/** One subscriber's List-Unsubscribe (RFC 8058): the mailto command and the signed one-click link. */
export const personalUnsubscribe = (list: ListRow, publicUrl: string, token: string) =>
  `<mailto:${list.email}?subject=unsubscribe>, <${publicUrl}/unsubscribe/${token}>`;
