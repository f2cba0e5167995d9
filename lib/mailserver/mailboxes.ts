// The folders the mail server creates for every account and the panel's cleaning rules act on, and Dovecot's quota root.
export const MAILBOXES = {
  inbox: "INBOX",
  trash: "Trash",
  spam: "Spam",
  sent: "Sent",
  drafts: "Drafts",
} as const;

/** Dovecot's quota root (config.ts): usage counted in Dovecot's index, the limit from the userdb's quota_rule. */
export const QUOTA_ROOT = "count:User quota";

/**
 * `doveadm save` of a message the service itself puts in a mailbox (the usage warning): past the quota too. A
 * warning is due most when the mailbox is full, where an enforced save fails (Dovecot's 10% grace lets a delivery
 * take usage over 100%). `noenforcing` skips the limit check only; the message still counts in the usage.
 */
export const saveBeyondQuota = (user: string, mailbox: string) => [
  "-o",
  `plugin/quota=${QUOTA_ROOT}:noenforcing`,
  "save",
  "-u",
  user,
  "-m",
  mailbox,
];
