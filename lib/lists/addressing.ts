import "server-only";
// How list mail is addressed: the VERP bounce address of each subscriber, and the list headers of every copy.
import type { Headers } from "mailsplit";
import { POSTER_HEADER, SENDER_VERIFIED_HEADER } from "@/lib/mailserver/antispam-config";
import { mailbox, phrase } from "./message";
import { listIdOf } from "./sendmail";
import type { ListRow, ListStore } from "./store";

type Target = { kind: "post"; list: ListRow } | { kind: "bounce"; list: ListRow; address: string };

const BOUNCE_MARK = "-bounces+";

/** A VERP bounce address names the subscriber: <list>-bounces+<user>=<host>@<domain>. */
export async function parseTarget(store: ListStore, address: string): Promise<Target | undefined> {
  const email = address.toLowerCase();
  const list = await store.listByEmail(email);
  if (list) return { kind: "post", list };
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const mark = local.indexOf(BOUNCE_MARK);
  if (at < 0 || mark <= 0) return undefined;
  const bounceList = await store.listByEmail(`${local.slice(0, mark)}${email.slice(at)}`);
  const verp = local.slice(mark + BOUNCE_MARK.length);
  const eq = verp.lastIndexOf("=");
  if (!bounceList || eq <= 0) return undefined;
  return { kind: "bounce", list: bounceList, address: `${verp.slice(0, eq)}@${verp.slice(eq + 1)}` };
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
    ["List-Subscribe", `<mailto:${list.email}?subject=subscribe>`],
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

/** The VERP bounce address of one subscriber: <list>-bounces+<user>=<host>@<domain> (Postfix's -XV form). */
export function verpAddress(list: { name: string; domain: string }, subscriber: string): string {
  const at = subscriber.lastIndexOf("@");
  return `${list.name}-bounces+${subscriber.slice(0, at)}=${subscriber.slice(at + 1)}@${list.domain}`;
}
