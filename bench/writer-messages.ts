// What the bench (bench/engine.ts, bench/servers.ts) and its writing process (bench/writer.ts) agree on.

/** About what Dovecot's quota_clone writes on a busy mail server. */
export const QUOTA_WRITES_PER_SECOND = 50;

/** The quota writer's answer to "stop": what it wrote since "start". */
export interface QuotaReport {
  writes: number;
  seconds: number;
}

/** The importer's last message. */
export interface ImportReport {
  accounts: number;
  seconds: number;
}
