// The PostgreSQL twin of db/schema.ts. KEEP THE TWO SCHEMAS IN STEP: every table and column of the
// SQLite schema exists here under the same export name, the same JS key and the same JS value type, so services
// written once read identical rows from either engine (db/pg/schema.test.ts fails when they drift).
// Translation rules:
// - SQLite INTEGER holds 64 bits; here a column that can pass 2^31 (epoch milliseconds, bytes, sums, versions)
//   is bigint in "number" mode, the others integer. Flags stay 0/1 integers, dates stay 'YYYY-MM-DD' text.
// - JSON arrays kept as text in SQLite are jsonb here (the same string[] in JS; the views expand them with
//   jsonb_array_elements_text where SQLite uses json_each).
// - blob is bytea (a Buffer in JS). REAL is double precision (SQLite's REAL is 8 bytes).
// - AUTOINCREMENT ids are identity columns ("by default", so a restore or a copy may give ids).
// Triggers, views and the trigram indexes are hand-written SQL in db/pg/migrations (see docs/postgresql.md).
import { sql } from "drizzle-orm";
import {
  bigint,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

/** SQLite's date('now'): today's UTC date as YYYY-MM-DD text. */
const today = sql`to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`;

/** A 64-bit integer read and written as a JS number (like better-sqlite3's integers). */
const int64 = (name: string) => bigint(name, { mode: "number" });

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

const jsonList = (name: string) =>
  jsonb(name)
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`);

/** The five anti-spam address lists shared by domains and accounts. */
const spamLists = () => ({
  spamWhiteList: jsonList("spam_white_list"),
  spamBlackList: jsonList("spam_black_list"),
  spamGreylistWhitelist: jsonList("spam_greylist_whitelist"),
  spamSpfWhitelist: jsonList("spam_spf_whitelist"),
  spamRblWhitelist: jsonList("spam_rbl_whitelist"),
});

const id = () => integer("id").primaryKey().generatedByDefaultAsIdentity();

/** See db/schema.ts. */
export const customers = pgTable("customers", {
  id: id(),
  name: text("name").notNull(),
  accountLimit: integer("account_limit"),
  aliasLimit: integer("alias_limit"),
  mailinglistLimit: integer("mailinglist_limit"),
  capacityLimit: int64("capacity_limit"),
  createdAt: text("created_at").notNull().default(today),
});

export const domains = pgTable(
  "domains",
  {
    id: id(),
    name: text("name").notNull().unique(),
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
    capacityLimit: int64("capacity_limit").notNull().default(102400),
    sendLimit: integer("send_limit").notNull().default(1000),
    // Usage counters, kept current by triggers (db/pg/migrations, the PL/pgSQL twin of SQLite's).
    accountCount: integer("account_count").notNull().default(0),
    aliasCount: integer("alias_count").notNull().default(0),
    mailinglistCount: integer("mailinglist_count").notNull().default(0),
    capacitySum: int64("capacity_sum").notNull().default(0),
    searchVersion: int64("search_version").notNull().default(0),
    createdAt: text("created_at").notNull().default(today),
  },
  (t) => [index("domains_customer_idx").on(t.customerId)],
);

/** An account's, alias's or mailing list's address columns and their two unique rules; see db/sqlite/schema.ts. */
const domainAddress = () => ({
  id: id(),
  domainId: integer("domain_id")
    .notNull()
    .references(() => domains.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  email: text("email").notNull(),
});

type AddressColumns = Record<"domainId" | "name" | "email", AnyPgColumn>;
const addressIndexes = (table: string, t: AddressColumns) => [
  uniqueIndex(`${table}_domain_name`).on(t.domainId, t.name),
  uniqueIndex(`${table}_email`).on(t.email),
  // sort=email walks this: within a domain the addresses' order is not the names' ("jan1@" before "jan@").
  index(`${table}_sort_email`).on(t.domainId, t.email, t.name),
];

export const accounts = pgTable(
  "accounts",
  {
    ...domainAddress(),
    description: text("description").notNull().default(""),
    searchKey: text("search_key").notNull().default(""),
    capacity: integer("capacity").notNull().default(1024),
    usageBytes: int64("usage_bytes").notNull().default(0),
    usageMessages: int64("usage_messages").notNull().default(0),
    usagePercent: integer("usage_percent")
      .notNull()
      .generatedAlwaysAs(
        sql`(CASE WHEN capacity > 0 THEN (usage_bytes * 100 / (capacity::bigint * 1048576))::integer ELSE 0 END)`,
      ),
    passwordHash: text("password_hash").notNull(),
    mailPasswordHash: text("mail_password_hash").notNull().default(""),
    // The operator's override of the domain's mailbox host (null: the domain's).
    mailHost: text("mail_host"),
    usageWarnedAt: text("usage_warned_at").notNull().default(""),
    sieveVersion: int64("sieve_version").notNull().default(0),
    usageNotificationLevel: integer("usage_notification_level").notNull().default(90),
    expirationDate: text("expiration_date").notNull().default(""),
    creationDate: text("creation_date").notNull().default(today),
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
    spamHits: doublePrecision("spam_hits").notNull().default(5),
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
    // The sorts by name, dates, capacity, description and blocked walk accounts_order, a copy that
    // deliveries do not update; the sorts by usage change with every delivery, so they stay here.
    index("accounts_sort_usage").on(t.domainId, t.usagePercent, t.name),
    index("accounts_sort_usage_bytes").on(t.domainId, t.usageBytes, t.name),
    // Only the few accounts placed apart from their domain: `mailserver host list|remove` count and find them.
    index("accounts_mail_host")
      .on(t.mailHost)
      .where(sql`mail_host IS NOT NULL`),
  ],
);

export const aliases = pgTable(
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

export const mailingLists = pgTable(
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

export const listMembers = pgTable(
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

/** How many times a list's members have changed (kept by the triggers list_members_version_*); see db/sqlite/schema.ts. */
export const listMemberVersions = pgTable("list_member_versions", {
  listId: integer("list_id").primaryKey(),
  version: int64("version").notNull().default(0),
});

export const listHeldPosts = pgTable(
  "list_held_posts",
  {
    id: id(),
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    sender: text("sender").notNull(),
    subject: text("subject").notNull(),
    size: int64("size").notNull(),
    message: bytea("message").notNull(),
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: ["held", "approved"] })
      .notNull()
      .default("held"),
    createdAt: int64("created_at").notNull(),
  },
  (t) => [
    index("list_held_posts_list").on(t.listId, t.createdAt),
    uniqueIndex("list_held_posts_token").on(t.tokenHash),
  ],
);

export const listTokens = pgTable(
  "list_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    action: text("action", { enum: ["subscribe", "unsubscribe"] }).notNull(),
    address: text("address").notNull(),
    expiresAt: int64("expires_at").notNull(),
  },
  (t) => [index("list_tokens_expiry").on(t.expiresAt), index("list_tokens_list_address").on(t.listId, t.address)],
);

export const listRequests = pgTable(
  "list_requests",
  {
    id: id(),
    client: text("client").notNull(),
    createdAt: int64("created_at").notNull(),
  },
  (t) => [index("list_requests_client").on(t.client, t.createdAt)],
);

export const listBounces = pgTable(
  "list_bounces",
  {
    listId: integer("list_id")
      .notNull()
      .references(() => mailingLists.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    count: integer("count").notNull().default(0),
    lastAt: int64("last_at").notNull(),
    lastReason: text("last_reason").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.listId, t.address] })],
);

/** Written by Dovecot's quota_clone through its SQL dict; a PL/pgSQL trigger copies it into the account. */
export const mailQuota = pgTable("mail_quota", {
  username: text("username").primaryKey(),
  bytes: int64("bytes").notNull().default(0),
  messages: int64("messages").notNull().default(0),
});

/** Mailbox hosts (docs/mail-hosts.md): where each host's IMAP, POP3, LMTP and ManageSieve answer the others. */
export const mailHosts = pgTable("mail_hosts", {
  name: text("name").primaryKey(),
  address: text("address").notNull(),
  imapPort: integer("imap_port").notNull().default(143),
  pop3Port: integer("pop3_port").notNull().default(110),
  lmtpPort: integer("lmtp_port").notNull().default(24),
  sievePort: integer("sieve_port").notNull().default(4190),
});

/** Greylisting's triplets shared by every MX (`mailserver policy` on PostgreSQL); times in epoch seconds. */
export const greylist = pgTable(
  "greylist",
  {
    client: text("client").notNull(),
    sender: text("sender").notNull(),
    recipient: text("recipient").notNull(),
    firstSeen: int64("first_seen").notNull(),
    lastSeen: int64("last_seen").notNull(),
    passed: integer("passed").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.client, t.sender, t.recipient] }),
    index("greylist_expiry").on(t.passed, t.lastSeen),
  ],
);

/** See db/sqlite/schema.ts. */
export const sendCounts = pgTable(
  "send_counts",
  {
    login: text("login").notNull(),
    minute: integer("minute").notNull(),
    recipients: integer("recipients").notNull(),
  },
  (t) => [primaryKey({ columns: [t.login, t.minute] }), index("send_counts_minute").on(t.minute)],
);

export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    createdAt: int64("created_at").notNull(),
    lastSeenAt: int64("last_seen_at").notNull(),
    clientIp: text("client_ip").notNull(),
  },
  (t) => [index("sessions_account_idx").on(t.accountId)],
);

export const loginThrottle = pgTable(
  "login_throttle",
  {
    clientIp: text("client_ip").notNull(),
    email: text("email").notNull(),
    failures: integer("failures").notNull().default(0),
    lockouts: integer("lockouts").notNull().default(0),
    lockedUntil: int64("locked_until").notNull().default(0),
    lastFailure: int64("last_failure").notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientIp, t.email] })],
);

export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});

export const smsQueue = pgTable(
  "sms_queue",
  {
    id: id(),
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    slot: integer("slot").notNull(),
    channel: text("channel").notNull(),
    target: text("target").notNull(),
    parts: jsonb("parts").$type<string[]>().notNull(),
    partsSent: integer("parts_sent").notNull().default(0),
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

export const dkimKeys = pgTable(
  "dkim_keys",
  {
    id: id(),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id, { onDelete: "cascade" }),
    selector: text("selector").notNull(),
    privateKey: text("private_key").notNull(),
    publicKey: text("public_key").notNull(),
    createdAt: text("created_at").notNull(),
    // 0: staged by a rotation, published in DNS but not signing until `domain dkim activate`.
    signing: integer("signing").notNull().default(1),
  },
  (t) => [uniqueIndex("dkim_keys_domain_selector").on(t.domainId, t.selector)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    at: int64("at").notNull(),
    domain: text("domain").notNull(),
    actor: text("actor").notNull(),
    clientIp: text("client_ip").notNull().default(""),
    via: text("via").notNull(),
    action: text("action").notNull(),
    resource: text("resource").notNull(),
    names: jsonb("names").$type<string[]>().notNull(),
    changes: jsonb("changes").$type<Record<string, unknown>>().notNull(),
    searchText: text("search_text").notNull().default(""),
  },
  (t) => [index("audit_log_domain_at_idx").on(t.domain, t.at), index("audit_log_at_idx").on(t.at)],
);

export const accountTotp = pgTable("account_totp", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: int64("enabled_at").notNull().default(0),
  lastStep: int64("last_step").notNull().default(0),
});

export const totpRecoveryCodes = pgTable(
  "totp_recovery_codes",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: int64("used_at").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.codeHash] })],
);

export const loginChallenges = pgTable("login_challenges", {
  idHash: text("id_hash").primaryKey(),
  accountId: integer("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  clientIp: text("client_ip").notNull(),
  createdAt: int64("created_at").notNull(),
  attempts: integer("attempts").notNull().default(0),
});

export const domainPolicies = pgTable("domain_policies", {
  domainId: integer("domain_id")
    .primaryKey()
    .references(() => domains.id, { onDelete: "cascade" }),
  require2fa: integer("require_2fa").notNull().default(0),
});

/** See db/schema.ts. */
export const mailPasswordChanges = pgTable(
  "mail_password_changes",
  {
    id: id(),
    email: text("email").notNull(),
    changedAt: int64("changed_at").notNull(),
  },
  (t) => [
    index("mail_password_changes_changed_at").on(t.changedAt),
    // The policy service's look-up of a login's changes (lib/mailserver/policy/signed-in-sessions.ts).
    index("mail_password_changes_email").on(t.email, t.changedAt),
  ],
);

export const submissionSessions = pgTable(
  "submission_sessions",
  {
    session: text("session").primaryKey(),
    since: int64("since").notNull(),
    instance: text("instance").notNull(),
    seqno: integer("seqno").notNull(),
    seen: int64("seen").notNull(),
  },
  (t) => [index("submission_sessions_seen").on(t.seen)],
);

export const mailPasswordChangesHandled = pgTable(
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
export const removedMailboxes = pgTable(
  "removed_mailboxes",
  {
    id: id(),
    email: text("email").notNull(),
    host: text("host"),
    removedAt: int64("removed_at").notNull(),
  },
  (t) => [index("removed_mailboxes_email").on(t.email)],
);
