// Drizzle schema of the mail database: tables, then their types.
// List-valued fields that the API only ever reads and writes whole (forwards, the anti-spam lists) are JSON
// arrays in a text column; members of mailing lists are rows, because they are searched and expanded one by one.
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";

const jsonList = (name: string) =>
  text(name, { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`);

/** The five anti-spam address lists shared by domains and accounts. */
const spamLists = () => ({
  spamWhiteList: jsonList("spam_white_list"),
  spamBlackList: jsonList("spam_black_list"),
  spamGreylistWhitelist: jsonList("spam_greylist_whitelist"),
  spamSpfWhitelist: jsonList("spam_spf_whitelist"),
  spamRblWhitelist: jsonList("spam_rbl_whitelist"),
});

/**
 * A hosting customer: owns one or more domains (docs/customers.md). A limit set here is pooled: every domain of the
 * customer answers it, with the usage summed over them all, instead of its own limit. NULL: per-domain limits.
 */
export const customers = sqliteTable("customers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  accountLimit: integer("account_limit"),
  aliasLimit: integer("alias_limit"),
  mailinglistLimit: integer("mailinglist_limit"),
  capacityLimit: integer("capacity_limit"),
  createdAt: text("created_at")
    .notNull()
    .default(sql`(date('now'))`),
});

export const domains = sqliteTable(
  "domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull().unique(),
    // Every domain has one.
    customerId: integer("customer_id").references(() => customers.id),
    catchallType: integer("catchall_type").notNull().default(0),
    catchallAddress: text("catchall_address").notNull().default(""),
    // The mailbox host (mail_hosts.name) holding this domain's mailboxes; null: every host serves them itself.
    mailHost: text("mail_host"),
    spamEnabled: integer("spam_enabled").notNull().default(1),
    ...spamLists(),
    spamRblEnabled: integer("spam_rbl_enabled").notNull().default(-1),
    spamSpfEnabled: integer("spam_spf_enabled").notNull().default(-1),
    spamGreylistEnabled: integer("spam_greylist_enabled").notNull().default(-1),
    accountLimit: integer("account_limit").notNull().default(1000),
    aliasLimit: integer("alias_limit").notNull().default(1000),
    mailinglistLimit: integer("mailinglist_limit").notNull().default(100),
    capacityLimit: integer("capacity_limit").notNull().default(102400),
    // Recipients per rolling hour each signed-in account of the domain may send to (0: no limit); the policy
    // service counts them in send_counts (docs/mail-server.md, "Sending limit"). Not a field of the v1 API.
    sendLimit: integer("send_limit").notNull().default(1000),
    // Usage counters, kept current by triggers (db/sqlite/migrations) so reading a domain costs no scan.
    accountCount: integer("account_count").notNull().default(0),
    aliasCount: integer("alias_count").notNull().default(0),
    mailinglistCount: integer("mailinglist_count").notNull().default(0),
    capacitySum: integer("capacity_sum").notNull().default(0),
    // Moved by triggers whenever a row of the domain's lists is added or removed or its search key
    // changes: a list total counted at one value holds while it stays (lib/server/resources/page.ts).
    searchVersion: integer("search_version").notNull().default(0),
    createdAt: text("created_at")
      .notNull()
      .default(sql`(date('now'))`),
  },
  (t) => [index("domains_customer_idx").on(t.customerId)],
);

/**
 * The columns of an address of a domain (an account, an alias, a mailing list): its local name, unique in the
 * domain, and its full address, unique across all domains (addressIndexes keeps both rules).
 */
const domainAddress = () => ({
  id: integer("id").primaryKey({ autoIncrement: true }),
  domainId: integer("domain_id")
    .notNull()
    .references(() => domains.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
});

type AddressColumns = Record<"domainId" | "name" | "email", AnySQLiteColumn>;
const addressIndexes = (table: string, t: AddressColumns) => [
  uniqueIndex(`${table}_domain_name`).on(t.domainId, t.name),
  uniqueIndex(`${table}_email`).on(t.email),
  // sort=email walks this: within a domain the addresses' order is not the names' ("jan1@" before "jan@").
  index(`${table}_sort_email`).on(t.domainId, t.email, t.name),
];

export const accounts = sqliteTable(
  "accounts",
  {
    ...domainAddress(),
    description: text("description").notNull().default(""),
    // Lowercased "name\u0001description" (Unicode-aware, done in JS) that the list search matches against.
    searchKey: text("search_key").notNull().default(""),
    capacity: integer("capacity").notNull().default(1024),
    usageBytes: integer("usage_bytes").notNull().default(0),
    usageMessages: integer("usage_messages").notNull().default(0),
    usagePercent: integer("usage_percent")
      .notNull()
      .generatedAlwaysAs(sql`(CASE WHEN capacity > 0 THEN usage_bytes * 100 / (capacity * 1048576) ELSE 0 END)`, {
        mode: "stored",
      }),
    // scrypt of the SHA-1 hex digest of the password: what /api/v1 verifies against.
    passwordHash: text("password_hash").notNull(),
    // "{SHA512-CRYPT}$6$..." of the password: what Dovecot verifies for mail logins (see docs/mail-server.md).
    mailPasswordHash: text("mail_password_hash").notNull().default(""),
    // The operator's override of the domain's mailbox host (null: the domain's).
    mailHost: text("mail_host"),
    // When `mailserver housekeeping` last delivered the usage warning (ISO timestamp), for the once-per-24-h rule.
    usageWarnedAt: text("usage_warned_at").notNull().default(""),
    // Bumped by triggers whenever the autoresponder's inputs change: the data ID of the generated Sieve script,
    // so Dovecot recompiles it (see the mail_sieve_scripts view).
    sieveVersion: integer("sieve_version").notNull().default(0),
    usageNotificationLevel: integer("usage_notification_level").notNull().default(90),
    expirationDate: text("expiration_date").notNull().default(""),
    creationDate: text("creation_date")
      .notNull()
      .default(sql`(date('now'))`),
    lastAuthDate: text("last_auth_date").notNull().default(""),
    lastAuthIp: text("last_auth_ip").notNull().default(""),
    keepMail: integer("keep_mail").notNull().default(1),
    forwards: jsonList("forwards"),
    forwardLimit: integer("forward_limit").notNull().default(3),
    aliasLimit: integer("alias_limit").notNull().default(10),
    aliasCreationPriv: integer("alias_creation_priv").notNull().default(0),
    inboxDeleteAfter: integer("inbox_delete_after").notNull().default(0),
    trashDeleteAfter: integer("trash_delete_after").notNull().default(30),
    spamEnabled: integer("spam_enabled").notNull().default(1),
    spamRule: text("spam_rule").notNull().default("move"),
    spamHits: real("spam_hits").notNull().default(5),
    spamDeleteAfter: integer("spam_delete_after").notNull().default(30),
    ...spamLists(),
    spamRblEnabled: integer("spam_rbl_enabled").notNull().default(-1),
    spamSpfEnabled: integer("spam_spf_enabled").notNull().default(-1),
    spamGreylistEnabled: integer("spam_greylist_enabled").notNull().default(-1),
    smsPhoneNumber1: text("sms_phone_number_1").notNull().default(""),
    smsPhoneNumber2: text("sms_phone_number_2").notNull().default(""),
    smsLogin1: text("sms_login_1").notNull().default(""),
    smsLogin2: text("sms_login_2").notNull().default(""),
    smsPassword1: text("sms_password_1").notNull().default(""),
    smsPassword2: text("sms_password_2").notNull().default(""),
    smsOperator1: integer("sms_operator_1").notNull().default(0),
    smsOperator2: integer("sms_operator_2").notNull().default(0),
    smsSendTo: integer("sms_send_to").notNull().default(0),
    smsCnt: integer("sms_cnt").notNull().default(0),
    autoresponderMode: integer("autoresponder_mode").notNull().default(0),
    autoresponderStartDate: text("autoresponder_start_date").notNull().default(""),
    autoresponderEndDate: text("autoresponder_end_date").notNull().default(""),
    autoresponderBody: text("autoresponder_body").notNull().default(""),
    blocked: integer("blocked").notNull().default(0),
    extraRules: integer("extra_rules").notNull().default(0),
  },
  (t) => [
    ...addressIndexes("accounts", t),
    // One index per sortable column of the account list, each ending in name for a stable order.
    index("accounts_sort_creation").on(t.domainId, t.creationDate, t.name),
    index("accounts_sort_expiration").on(t.domainId, t.expirationDate, t.name),
    index("accounts_sort_last_auth").on(t.domainId, t.lastAuthDate, t.name),
    index("accounts_sort_capacity").on(t.domainId, t.capacity, t.name),
    index("accounts_sort_description").on(t.domainId, t.description, t.name),
    index("accounts_sort_blocked").on(t.domainId, t.blocked, t.name),
    index("accounts_sort_usage").on(t.domainId, t.usagePercent, t.name),
    index("accounts_sort_usage_bytes").on(t.domainId, t.usageBytes, t.name),
    // Only the few accounts placed apart from their domain: `mailserver host list|remove` count and find them.
    index("accounts_mail_host")
      .on(t.mailHost)
      .where(sql`mail_host IS NOT NULL`),
  ],
);

export const aliases = sqliteTable(
  "aliases",
  {
    ...domainAddress(),
    target: text("target").notNull(),
    searchKey: text("search_key").notNull().default(""),
  },
  (t) => [
    ...addressIndexes("aliases", t),
    index("aliases_sort_target").on(t.domainId, t.target, t.name),
    index("aliases_target").on(t.target),
  ],
);

export const mailingLists = sqliteTable(
  "mailing_lists",
  {
    ...domainAddress(),
    description: text("description").notNull().default(""),
    searchKey: text("search_key").notNull().default(""),
    privacyMode: integer("privacy_mode").notNull().default(0),
    replytoMode: integer("replyto_mode").notNull().default(0),
    replytoEmail: text("replyto_email").notNull().default(""),
    replytoCatchall: integer("replyto_catchall").notNull().default(0),
    confirmUrl: text("confirm_url").notNull().default(""),
    autosubscribeEnabled: integer("autosubscribe_enabled").notNull().default(0),
    subscribeRequestMailBody: text("subscribe_request_mail_body").notNull(),
    subscribeRequestMailSubject: text("subscribe_request_mail_subject").notNull(),
    unsubscribeRequestMailBody: text("unsubscribe_request_mail_body").notNull(),
    unsubscribeRequestMailSubject: text("unsubscribe_request_mail_subject").notNull(),
    subscribeMailBody: text("subscribe_mail_body").notNull(),
    subscribeMailSubject: text("subscribe_mail_subject").notNull(),
    unsubscribeMailBody: text("unsubscribe_mail_body").notNull(),
    unsubscribeMailSubject: text("unsubscribe_mail_subject").notNull(),
  },
  (t) => [
    ...addressIndexes("mailing_lists", t),
    index("mailing_lists_sort_description").on(t.domainId, t.description, t.name),
    index("mailing_lists_sort_privacy").on(t.domainId, t.privacyMode, t.name),
    index("mailing_lists_sort_replyto").on(t.domainId, t.replytoMode, t.name),
    index("mailing_lists_sort_autosubscribe").on(t.domainId, t.autosubscribeEnabled, t.name),
  ],
);

export const listMembers = sqliteTable(
  "list_members",
  {
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["subscriber", "moderator"] }).notNull(),
    address: text("address").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.role, t.address] }),
    index("list_members_address").on(t.address),
    // Members in their order, read in pages (a 50,000-member PUT reads them in slices).
    index("list_members_order").on(t.listId, t.role, t.position, t.address),
  ],
);

/**
 * How many times a list's members have changed (triggers list_members_version_* count every insert, update and delete
 * of `list_members`, whoever makes it). A PUT of a big list reads the members in slices outside its write
 * transaction and writes only if this number is still the one it read (lib/server/list-members-put.ts).
 */
export const listMemberVersions = sqliteTable("list_member_versions", {
  listId: integer("list_id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/**
 * The list service (lib/lists, docs/lists.md). Posts held for moderation, with the raw message; `status` moves
 * from held to approved (the service sends it) or is deleted on reject or expiry. Times are epoch milliseconds.
 */
export const listHeldPosts = sqliteTable(
  "list_held_posts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    sender: text("sender").notNull(),
    subject: text("subject").notNull(),
    size: integer("size").notNull(),
    message: blob("message", { mode: "buffer" }).notNull(),
    /** SHA-256 of the moderators' link token (the token itself is only in the notifications). */
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: ["held", "approved"] })
      .notNull()
      .default("held"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("list_held_posts_list").on(t.listId, t.createdAt),
    uniqueIndex("list_held_posts_token").on(t.tokenHash),
  ],
);

/** Subscription and unsubscription confirmations: single use, stored hashed, expiring. */
export const listTokens = sqliteTable(
  "list_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["subscribe", "unsubscribe"] }).notNull(),
    address: text("address").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("list_tokens_expiry").on(t.expiresAt), index("list_tokens_list_address").on(t.listId, t.address)],
);

/** Confirmation requests made through the lists' pages, by client address: the hourly budget (docs/lists.md). */
export const listRequests = sqliteTable(
  "list_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    client: text("client").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("list_requests_client").on(t.client, t.createdAt)],
);

/** Bounces received at a list's VERP address, one row per list and subscriber. */
export const listBounces = sqliteTable(
  "list_bounces",
  {
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    count: integer("count").notNull().default(0),
    lastAt: integer("last_at").notNull(),
    lastReason: text("last_reason").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.listId, t.address] })],
);

/**
 * Mailbox usage as Dovecot's quota_clone plugin writes it through its SQL dict (one row per user, upserted);
 * a trigger copies it into accounts.usage_bytes / usage_messages, which the API's `usage` reads.
 */
export const mailQuota = sqliteTable("mail_quota", {
  username: text("username").primaryKey(),
  bytes: integer("bytes").notNull().default(0),
  messages: integer("messages").notNull().default(0),
});

/** Mailbox hosts (docs/mail-hosts.md): where each host's IMAP, POP3, LMTP and ManageSieve answer the others. */
export const mailHosts = sqliteTable("mail_hosts", {
  name: text("name").primaryKey(),
  address: text("address").notNull(),
  imapPort: integer("imap_port").notNull().default(143),
  pop3Port: integer("pop3_port").notNull().default(110),
  lmtpPort: integer("lmtp_port").notNull().default(24),
  sievePort: integer("sieve_port").notNull().default(4190),
});

/**
 * Greylisting's triplets in the shared database (`mailserver policy --state database`); times in epoch seconds. On
 * SQLite the policy service keeps its own file by default (lib/mailserver/policy/greylist.ts).
 */
export const greylist = sqliteTable(
  "greylist",
  {
    client: text("client").notNull(),
    sender: text("sender").notNull(),
    recipient: text("recipient").notNull(),
    firstSeen: integer("first_seen").notNull(),
    lastSeen: integer("last_seen").notNull(),
    passed: integer("passed").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.client, t.sender, t.recipient] }),
    index("greylist_expiry").on(t.passed, t.lastSeen),
  ],
);

/**
 * Recipients a signed-in sender (SASL login) was accepted for, per minute (epoch seconds / 60): the policy service's
 * rolling hour is the sum of a login's last 60 rows (lib/mailserver/policy/send-limit.ts), shared by every mail host.
 */
export const sendCounts = sqliteTable(
  "send_counts",
  {
    login: text("login").notNull(),
    minute: integer("minute").notNull(),
    recipients: integer("recipients").notNull(),
  },
  (t) => [primaryKey({ columns: [t.login, t.minute] }), index("send_counts_minute").on(t.minute)],
);

/**
 * Panel sessions. The browser's cookie holds a random id; only its SHA-256 hash is kept here, with the account and
 * the times, and nothing that authenticates (no digest, no password hash): a copy of this table signs nobody in.
 * Times are epoch milliseconds.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    clientIp: text("client_ip").notNull(),
  },
  (t) => [index("sessions_account_idx").on(t.accountId)],
);

/**
 * Failed logins, shared by every process: one row per (client address, account address) for the per-account lock,
 * and one per client address with `email` = '' for the budget across accounts. Times are epoch milliseconds.
 */
export const loginThrottle = sqliteTable(
  "login_throttle",
  {
    clientIp: text("client_ip").notNull(),
    email: text("email").notNull(),
    failures: integer("failures").notNull().default(0),
    lockouts: integer("lockouts").notNull().default(0),
    lockedUntil: integer("locked_until").notNull().default(0),
    lastFailure: integer("last_failure").notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientIp, t.email] })],
);

/** Secrets of the service shared by every process (the device-cookie key), made at first use. */
export const serverSecrets = sqliteTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

export type CustomerRow = typeof customers.$inferSelect;
// SMS notifications of new mail waiting to be sent, sent, or given up on (lib/mailserver/sms): filled by the mail
// event service when Dovecot reports a delivery to an inbox, emptied by its queue worker with retries.
export const smsQueue = sqliteTable(
  "sms_queue",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    // 1 or 2: which sms_phone_number_N of the account.
    slot: integer("slot").notNull(),
    // "email" (an e-mail to the address in target) or "http" (the provider's SMS gateway, target is the number).
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    // The SMS texts, already flattened and cut to length, as a JSON array (one element per SMS).
    parts: text("parts", { mode: "json" }).$type<string[]>().notNull(),
    // How many of the parts have gone out: a retry sends the rest, not the first ones again.
    partsSent: integer("parts_sent").notNull().default(0),
    // pending, sent, failed (retries used up) or skipped (rate limit).
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    lastError: text("last_error").notNull().default(""),
    createdAt: text("created_at").notNull(),
    sentAt: text("sent_at").notNull().default(""),
  },
  (t) => [
    index("sms_queue_due").on(t.status, t.nextAttemptAt),
    index("sms_queue_account").on(t.accountId, t.createdAt),
  ],
);

// DKIM keys per domain (lib/mailserver/dkim.ts): the newest signing row of a domain signs; rspamd reads it from the
// key files the event service keeps in step with this table. A rotation stages a key (signing 0) until DNS has it.
export const dkimKeys = sqliteTable(
  "dkim_keys",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    selector: text("selector").notNull(),
    privateKey: text("private_key").notNull(),
    // The base64 SubjectPublicKeyInfo: the p= of the TXT record.
    publicKey: text("public_key").notNull(),
    createdAt: text("created_at").notNull(),
    signing: integer("signing").notNull().default(1),
  },
  (t) => [uniqueIndex("dkim_keys_domain_selector").on(t.domainId, t.selector)],
);
// --- the audit log and two-factor sign-in (tables of their own) ---

/** One change made through the API, the panel or the CLI (lib/server/resources/audit.ts). Passwords are never in it. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Unix time in ms. */
    at: integer("at").notNull(),
    /** The domain's name ("" for server-wide changes); kept as text so entries outlive a removed domain. */
    domain: text("domain").notNull(),
    /** Who: the signed-in or authenticated address, or "cli" for the operator's CLI. */
    actor: text("actor").notNull(),
    clientIp: text("client_ip").notNull().default(""),
    /** "api", "panel" or "cli". */
    via: text("via").notNull(),
    /** "create", "update" or "delete". */
    action: text("action").notNull(),
    /** "domain", "account", "alias", "list", "account_security". */
    resource: text("resource").notNull(),
    names: text("names", { mode: "json" }).$type<string[]>().notNull(),
    /** {field: {old, new}}; secrets appear as {changed: true} only. */
    changes: text("changes", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Lowercased actor, names and fields, for the log's search. */
    searchText: text("search_text").notNull().default(""),
  },
  (t) => [index("audit_log_domain_at_idx").on(t.domain, t.at), index("audit_log_at_idx").on(t.at)],
);

/** An account's TOTP secret (AES-256-GCM, key from TOTP_ENCRYPTION_KEY); `enabledAt` 0 while set-up is unconfirmed. */
export const accountTotp = sqliteTable("account_totp", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: integer("enabled_at").notNull().default(0),
  /** The last accepted time step: a code is never accepted twice. */
  lastStep: integer("last_step").notNull().default(0),
});

/** One-time recovery codes: their SHA-256 only. */
export const totpRecoveryCodes = sqliteTable(
  "totp_recovery_codes",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

/** A password accepted, the second step pending: the browser holds the id, this table its SHA-256. */
export const loginChallenges = sqliteTable("login_challenges", {
  idHash: text("id_hash").primaryKey(),
  accountId: integer("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  clientIp: text("client_ip").notNull(),
  createdAt: integer("created_at").notNull(),
  attempts: integer("attempts").notNull().default(0),
});

/** Per-domain sign-in policy set by the operator (`domain set --require-2fa`). */
export const domainPolicies = sqliteTable("domain_policies", {
  domainId: integer("domain_id")
    .primaryKey()
    .references(() => domains.id, { onDelete: "cascade" }),
  require2fa: integer("require_2fa").notNull().default(0),
});

export type DomainRow = typeof domains.$inferSelect;
export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;
export type AliasRow = typeof aliases.$inferSelect;
export type MailingListRow = typeof mailingLists.$inferSelect;
export type ListMemberRow = typeof listMembers.$inferSelect;
export type ListHeldPostRow = typeof listHeldPosts.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type SmsQueueRow = typeof smsQueue.$inferSelect;
export type DkimKeyRow = typeof dkimKeys.$inferSelect;

/**
 * One change of an account's mail password, written by the trigger accounts_mail_password_change on
 * accounts.mail_password_hash (so a change by any path is seen): `mailserver events` on each mail host ends the
 * account's open Dovecot sessions, then records it in mailPasswordChangesHandled. Pruned after a day.
 */
export const mailPasswordChanges = sqliteTable(
  "mail_password_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [
    index("mail_password_changes_changed_at").on(t.changedAt),
    // The policy service's look-up of a login's changes (lib/mailserver/policy/signed-in-sessions.ts).
    index("mail_password_changes_email").on(t.email, t.changedAt),
  ],
);

/**
 * The signed-in SMTP submission sessions the policy service has been asked about, each with the earliest moment it is
 * known to have been signed in by (lib/mailserver/policy/signed-in-sessions.ts): shared by every mail host's policy
 * service and kept over restarts. Pruned a day after a session's last request.
 */
export const submissionSessions = sqliteTable(
  "submission_sessions",
  {
    session: text("session").primaryKey(),
    since: integer("since").notNull(),
    instance: text("instance").notNull(),
    seqno: integer("seqno").notNull(),
    seen: integer("seen").notNull(),
  },
  (t) => [index("submission_sessions_seen").on(t.seen)],
);

/** Which mail host (MAIL_HOST_NAME, '' without one) has ended the sessions of which password change. */
export const mailPasswordChangesHandled = sqliteTable(
  "mail_password_changes_handled",
  {
    changeId: integer("change_id")
      .notNull()
      .references(() => mailPasswordChanges.id, { onDelete: "cascade" }),
    host: text("host").notNull(),
  },
  (t) => [primaryKey({ columns: [t.changeId, t.host] })],
);

/**
 * A mailbox whose account was deleted (alone or with its domain), until the mail host holding it has removed its folder
 * (lib/mailserver/removed-mailboxes.ts): meanwhile mail_passdb leaves the address out, so an account created again
 * under it cannot log in to the previous owner's mail. `host`: where the mailbox lived (null: placed on none).
 */
export const removedMailboxes = sqliteTable(
  "removed_mailboxes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    host: text("host"),
    removedAt: integer("removed_at").notNull(),
  },
  (t) => [index("removed_mailboxes_email").on(t.email)],
);
