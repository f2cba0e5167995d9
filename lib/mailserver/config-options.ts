// The settings of `mailserver config` and their defaults.
import { DEFAULT_DELIVERY_OPTIONS, type DeliveryConfigOptions } from "./config-delivery";
import type { AntispamOptions } from "./antispam-config";
import type { PgsqlMapOptions } from "./config-database";

export interface MailServerConfigOptions extends Partial<
  Omit<DeliveryConfigOptions, "outDir" | "databasePath" | "mailUser">
> {
  /** Where the files are written (absolute after resolution). */
  outDir: string;
  databasePath: string;
  /** PostgreSQL instead of the SQLite file (config-database.ts): pgsql maps and Dovecot's pgsql driver. */
  pgsql?: PgsqlMapOptions;
  /** Mailboxes live in <maildirRoot>/<domain>/<name>/Maildir. */
  maildirRoot: string;
  /** System user and group owning the mailboxes. */
  mailUser: string;
  mailGroup: string;
  /** Group with write access to the database's folder (SQLite readers in WAL mode write the -shm file). */
  dbGroup: string;
  /** Postfix's virtual_transport: where Dovecot's LMTP listens. */
  lmtp: string;
  /** Where the list service (`lists serve`, docs/lists.md) listens: the transport of list addresses. */
  listsLmtp?: string;
  /** Rspamd, Redis and the policy service (lib/mailserver/antispam-config.ts). */
  antispam?: AntispamOptions;
  /**
   * This host's name in mail_hosts (MAIL_HOST_NAME, docs/mail-hosts.md): mailboxes of other hosts are proxied
   * (Dovecot) and handed to their host's LMTP (Postfix). Unset: every mailbox is served here (one mail host).
   */
  hostName?: string;
}

export const DEFAULT_CONFIG_OPTIONS = {
  maildirRoot: "/var/vmail",
  mailUser: "vmail",
  mailGroup: "vmail",
  dbGroup: "mailadmin",
  lmtp: "lmtp:unix:private/dovecot-lmtp",
  listsLmtp: "lmtp:inet:127.0.0.1:10024",
  ...DEFAULT_DELIVERY_OPTIONS,
} as const;

export const delivery = (o: MailServerConfigOptions): DeliveryConfigOptions => ({
  ...DEFAULT_DELIVERY_OPTIONS,
  ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
  outDir: o.outDir,
  databasePath: o.databasePath,
  pgsql: o.pgsql,
  mailUser: o.mailUser,
});

/** A mail host's name: written into the generated queries, so only letters, digits, dots and dashes. */
export const MAIL_HOST_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$/;

export function checkedHostName(o: MailServerConfigOptions): string | undefined {
  if (o.hostName !== undefined && !MAIL_HOST_NAME.test(o.hostName))
    throw new Error(`mail host name '${o.hostName}': lowercase letters, digits, dots and dashes`);
  return o.hostName;
}
