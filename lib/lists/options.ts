import "server-only";
// The list service's settings and their defaults (the CLI's `lists serve` and the sandbox start it with them).
import type { Db } from "@/db/client";
import type { SmtpTarget } from "./copies";
import type { SendmailOptions } from "./sendmail";

export interface ListServiceOptions extends SendmailOptions {
  db: Db;
  /**
   * LMTP listener (Postfix's transport for list addresses): a TCP address (port 0 picks a free one), or a unix socket,
   * made 0660 so that only the socket folder's group (postfix) can hand mail over (docs/lists.md, Settings).
   */
  lmtp: { host: string; port: number } | { path: string };
  /** Confirmation and moderation pages; PUBLIC_URL is how the outside reaches them. */
  http: { host: string; port: number };
  publicUrl: string;
  spoolDir: string;
  /** Postfix's SMTP listener for the copies (one message per subscriber, docs/lists.md). */
  smtp: SmtpTarget;
  /** Copies handed over at once (pooled SMTP connections). */
  smtpConnections: number;
  /** Subscribers read from the database at a time. */
  batchSize: number;
  /** Held posts not approved within this many days are deleted. */
  heldDays: number;
  /** Confirmation links expire after this many hours. */
  tokenHours: number;
  /** Confirmation requests the pages send per client address within an hour. */
  requestsPerHour: number;
  /** How often approved posts are looked for (the panel approves through the database). */
  pollMs: number;
  log: (line: string) => void;
}

export const LIST_SERVICE_DEFAULTS = {
  lmtp: { host: "127.0.0.1", port: 10024 },
  http: { host: "127.0.0.1", port: 10025 },
  sendmail: "/usr/sbin/sendmail",
  smtp: { host: "127.0.0.1", port: 25 },
  smtpConnections: 4,
  batchSize: 500,
  heldDays: 14,
  tokenHours: 48,
  requestsPerHour: 5,
  pollMs: 2000,
} as const;
