import "server-only";
// What the list service does with a message to a list address (docs/lists.md, "Who may post", "Subscription by
// mail", "Loops"), decided from the envelope sender and a few headers. One rule for both places that ask: the list
// service at LMTP delivery, and the policy service while the sender is still connected (Rspamd asks it at the end
// of DATA, lib/mailserver/antispam-config.ts), so that what the service would refuse is refused in the SMTP session
// instead of bounced.
import type { ListRow, ListStore } from "./store";
import { LIST_MAX_HEAD_BYTES } from "./message";
import { listIdOf } from "./sendmail";

export interface PostFacts {
  /** The List-Id header lines of the message. */
  listIds: string[];
  autoSubmitted: string;
  envelopeFrom: string;
  /** The From address, lowercased. */
  poster: string;
  /** The From is authenticated (Rspamd's X-Mailadmin-Poster names it). */
  verified: boolean;
  subject: string;
  /** The size of the header block in bytes, when known (the SMTP session's question). */
  headerBytes?: number;
}

export type Decision =
  | { kind: "discard"; reason: string }
  | { kind: "subscribe" }
  | { kind: "unsubscribe" }
  | { kind: "distribute" }
  | { kind: "replyto" }
  | { kind: "hold" }
  | { kind: "refuse"; text: string };

/** Senders whose mail is never distributed: bounces and other lists' bounce addresses. */
export const isBounceSender = (sender: string) =>
  sender === "" || /^(mailer-daemon|[^@]*-bounces(\+[^@]*)?)@/i.test(sender);

/** The refusals' texts (an SMTP reply after the enhanced status code). */
export const REFUSALS = {
  noSubscriptions: "5.7.1 This list does not take subscriptions by mail",
  closed: "5.7.1 Only subscribers may post to this list",
  moderationFull: "5.7.1 Too many posts of this list are waiting for its moderators",
  headerTooLarge: "5.7.1 The header of this message is too large for a mailing list",
  unauthenticatedRequest:
    "5.7.1 A request by mail needs a From this server can authenticate (DMARC or a login); use the list's page",
} as const;

/**
 * Posts a list keeps for its moderators at most. Each is stored for days and mailed to every moderator, so a flood
 * of outsiders' posts stops here: past it, the next is refused in the SMTP session.
 */
export const MAX_HELD_POSTS = 100;

/**
 * The largest header block a list post may have in the SMTP session. The list service reads the header block in
 * memory, up to LIST_MAX_HEAD_BYTES; half of it here leaves room for what Postfix and Rspamd add on the way.
 */
export const MAX_POST_HEADER_BYTES = LIST_MAX_HEAD_BYTES / 2;

export async function admit(store: ListStore, list: ListRow, m: PostFacts): Promise<Decision> {
  const id = `<${listIdOf(list)}>`;
  if (m.listIds.some((line) => line.toLowerCase().includes(id)))
    return { kind: "discard", reason: "loop (this list's List-Id)" };
  const auto = m.autoSubmitted.trim().toLowerCase();
  if (auto && auto !== "no") return { kind: "discard", reason: "Auto-Submitted" };
  if (isBounceSender(m.envelopeFrom)) return { kind: "discard", reason: "sent from a bounce address" };
  if ((m.headerBytes ?? 0) > MAX_POST_HEADER_BYTES) return { kind: "refuse", text: REFUSALS.headerTooLarge };

  const command = m.subject.trim().toLowerCase();
  if (command === "subscribe" && !list.autosubscribeEnabled) return { kind: "refuse", text: REFUSALS.noSubscriptions };
  if (command === "subscribe" || command === "unsubscribe") {
    // The request is mailed to the From address: only to one that is authenticated, never to whoever a forger names
    // (a request a day to each of any number of addresses, with the list owner's text, signed by the list's domain).
    if (!m.verified || !m.poster) return { kind: "refuse", text: REFUSALS.unauthenticatedRequest };
    return { kind: command };
  }

  // Only an authenticated From counts; anyone else's post is an outsider's, whatever address it claims.
  const role = m.verified && m.poster ? await store.role(list.id, m.poster) : { subscriber: false, moderator: false };
  if (list.privacyMode === 0 || role.moderator || (list.privacyMode === 2 && role.subscriber))
    return { kind: "distribute" };
  if (list.privacyMode === 1) {
    if (role.subscriber && list.replytoCatchall === 1 && list.replytoEmail) return { kind: "replyto" };
    if ((await store.heldCount(list.id)) >= MAX_HELD_POSTS) return { kind: "refuse", text: REFUSALS.moderationFull };
    return { kind: "hold" };
  }
  return { kind: "refuse", text: REFUSALS.closed };
}
