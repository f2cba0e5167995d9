import "server-only";
// What the list service reads and writes in the panel's database: lists by address, members, held posts,
// confirmation tokens and bounces. Statements are prepared once per connection.
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import type { MailingListRow } from "@/db/schema";

export type ListRow = MailingListRow & { domain: string };

export const sha256 = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
export const newToken = () => crypto.randomBytes(24).toString("base64url");

const cache = new WeakMap<Db, ReturnType<typeof build>>();

function build(db: Db) {
  const c = db.$client;
  const listColumns = `l.id AS id, l.domain_id AS domainId, l.name AS name, l.email AS email, l.description AS description,
    l.search_key AS searchKey, l.privacy_mode AS privacyMode, l.replyto_mode AS replytoMode, l.replyto_email AS replytoEmail,
    l.replyto_catchall AS replytoCatchall, l.confirm_url AS confirmUrl, l.autosubscribe_enabled AS autosubscribeEnabled,
    l.subscribe_request_mail_body AS subscribeRequestMailBody, l.subscribe_request_mail_subject AS subscribeRequestMailSubject,
    l.unsubscribe_request_mail_body AS unsubscribeRequestMailBody, l.unsubscribe_request_mail_subject AS unsubscribeRequestMailSubject,
    l.subscribe_mail_body AS subscribeMailBody, l.subscribe_mail_subject AS subscribeMailSubject,
    l.unsubscribe_mail_body AS unsubscribeMailBody, l.unsubscribe_mail_subject AS unsubscribeMailSubject, d.name AS domain`;
  return {
    listByEmail: c.prepare(`SELECT ${listColumns} FROM mailing_lists l JOIN domains d ON d.id = l.domain_id WHERE l.email = ?`),
    listById: c.prepare(`SELECT ${listColumns} FROM mailing_lists l JOIN domains d ON d.id = l.domain_id WHERE l.id = ?`),
    role: c.prepare("SELECT role FROM list_members WHERE list_id = ? AND address = ?").pluck(),
    /** Subscribers in pages by address (keyset), so a big list is never held in memory at once. */
    subscribersAfter: c
      .prepare("SELECT address FROM list_members WHERE list_id = ? AND role = 'subscriber' AND address > ? ORDER BY address LIMIT ?")
      .pluck(),
    moderators: c.prepare("SELECT address FROM list_members WHERE list_id = ? AND role = 'moderator' ORDER BY position").pluck(),
    subscriberCount: c.prepare("SELECT count(*) FROM list_members WHERE list_id = ? AND role = 'subscriber'").pluck(),
    addSubscriber: c.prepare(
      `INSERT OR IGNORE INTO list_members (list_id, role, address, position)
       VALUES (@list, 'subscriber', @address,
         (SELECT coalesce(max(position), -1) + 1 FROM list_members WHERE list_id = @list AND role = 'subscriber'))`,
    ),
    removeSubscriber: c.prepare("DELETE FROM list_members WHERE list_id = ? AND role = 'subscriber' AND address = ?"),
    insertToken: c.prepare("INSERT INTO list_tokens (token_hash, list_id, action, address, expires_at) VALUES (?, ?, ?, ?, ?)"),
    peekToken: c.prepare("SELECT list_id AS listId, action, address, expires_at AS expiresAt FROM list_tokens WHERE token_hash = ?"),
    takeToken: c.prepare(
      "DELETE FROM list_tokens WHERE token_hash = ? RETURNING list_id AS listId, action, address, expires_at AS expiresAt",
    ),
    expireTokens: c.prepare("DELETE FROM list_tokens WHERE expires_at < ?"),
    hold: c.prepare(
      `INSERT INTO list_held_posts (list_id, sender, subject, size, message, token_hash, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'held', ?) RETURNING id`,
    ).pluck(),
    heldByToken: c.prepare("SELECT id, list_id AS listId, sender, subject, status FROM list_held_posts WHERE token_hash = ?"),
    setStatus: c.prepare("UPDATE list_held_posts SET status = ? WHERE id = ? AND status = 'held'"),
    deleteHeld: c.prepare("DELETE FROM list_held_posts WHERE id = ?"),
    // One at a time: a message may be as large as Postfix's message_size_limit.
    approved: c.prepare("SELECT id, list_id AS listId, message FROM list_held_posts WHERE status = 'approved' ORDER BY id LIMIT 1"),
    expireHeld: c.prepare("DELETE FROM list_held_posts WHERE status = 'held' AND created_at < ?"),
    bounce: c.prepare(
      `INSERT INTO list_bounces (list_id, address, count, last_at, last_reason) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (list_id, address) DO UPDATE SET count = count + 1, last_at = excluded.last_at, last_reason = excluded.last_reason`,
    ),
    clearBounces: c.prepare("DELETE FROM list_bounces WHERE list_id = ? AND address = ?"),
  };
}

export function listStore(db: Db) {
  let s = cache.get(db);
  if (!s) cache.set(db, (s = build(db)));
  const st = s;
  return {
    listByEmail: (email: string) => st.listByEmail.get(email) as ListRow | undefined,
    listById: (id: number) => st.listById.get(id) as ListRow | undefined,
    role(listId: number, address: string): { subscriber: boolean; moderator: boolean } {
      const roles = st.role.all(listId, address) as string[];
      return { subscriber: roles.includes("subscriber"), moderator: roles.includes("moderator") };
    },
    subscribersAfter: (listId: number, after: string, limit: number) => st.subscribersAfter.all(listId, after, limit) as string[],
    moderators: (listId: number) => st.moderators.all(listId) as string[],
    subscribe: (listId: number, address: string) => st.addSubscriber.run({ list: listId, address }).changes > 0,
    unsubscribe(listId: number, address: string): boolean {
      st.clearBounces.run(listId, address);
      return st.removeSubscriber.run(listId, address).changes > 0;
    },
    createToken(listId: number, action: "subscribe" | "unsubscribe", address: string, ttlMs: number): string {
      const token = newToken();
      st.insertToken.run(sha256(token), listId, action, address, Date.now() + ttlMs);
      return token;
    },
    /** The token's request without using it up (the confirmation page's GET). */
    peekToken(token: string) {
      const row = st.peekToken.get(sha256(token)) as TokenRow | undefined;
      return row && row.expiresAt >= Date.now() ? row : undefined;
    },
    /** Uses the token up: single use, and only before it expires. */
    takeToken(token: string) {
      const row = st.takeToken.get(sha256(token)) as TokenRow | undefined;
      return row && row.expiresAt >= Date.now() ? row : undefined;
    },
    hold(listId: number, sender: string, subject: string, message: Buffer, tokenHash: string): number {
      return st.hold.get(listId, sender, subject, message.length, message, tokenHash, Date.now()) as number;
    },
    subscriberCount: (listId: number) => st.subscriberCount.get(listId) as number,
    /** A post to send later (a big list's): kept as an approved post, which the pump sends and deletes. */
    queue(listId: number, sender: string, subject: string, message: Buffer): number {
      const id = st.hold.get(listId, sender, subject, message.length, message, sha256(newToken()), Date.now()) as number;
      st.setStatus.run("approved", id);
      return id;
    },
    heldByToken: (token: string) =>
      st.heldByToken.get(sha256(token)) as { id: number; listId: number; sender: string; subject: string; status: string } | undefined,
    approve: (id: number) => st.setStatus.run("approved", id).changes > 0,
    deleteHeld: (id: number) => st.deleteHeld.run(id).changes > 0,
    approved: () => st.approved.all() as { id: number; listId: number; message: Buffer }[],
    expire(heldBefore: number) {
      st.expireTokens.run(Date.now());
      return st.expireHeld.run(heldBefore).changes;
    },
    recordBounce: (listId: number, address: string, reason: string) => st.bounce.run(listId, address, Date.now(), reason),
  };
}
export type ListStore = ReturnType<typeof listStore>;

interface TokenRow {
  listId: number;
  action: "subscribe" | "unsubscribe";
  address: string;
  expiresAt: number;
}
