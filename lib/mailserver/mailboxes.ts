// The folders the mail server creates for every account and the panel's cleaning rules act on.
export const MAILBOXES = {
  inbox: "INBOX",
  trash: "Trash",
  spam: "Spam",
  sent: "Sent",
  drafts: "Drafts",
} as const;
