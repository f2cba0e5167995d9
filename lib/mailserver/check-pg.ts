import "server-only";
// `mailserver check` on PostgreSQL: the application's connection (DATABASE_URL), and the mail role the
// generated maps use: it must reach every read host, read the views, and be unable to touch the tables (a map file
// holding the owner's password would give every local reader of /etc/mailadmin the whole database).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { MAIL_LOOKUP_KEYS, MAIL_VIEWS } from "@/db/pg/mail-reader";
import { API_APPLICATION_NAME, databasePoolMax, nodePgConnectionString, workersSetting } from "@/lib/config.mjs";

export interface MailRoleSettings {
  hosts: string[];
  user: string;
  password: string;
  dbname: string;
}

type Result = { ok: boolean; detail: string };

/** hosts/user/password/dbname of a pgsql_table(5) file `mailserver config` wrote. */
export function readPgsqlMapFile(file: string): MailRoleSettings {
  const settings = Object.fromEntries(
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .map((l) => /^(\w+)\s*=\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => [m[1]!, m[2]!.trim()]),
  );
  if (!settings.hosts || !settings.user || !settings.dbname)
    throw new Error(`${file}: not a pgsql map (hosts, user, dbname)`);
  return {
    hosts: settings.hosts.split(/[\s,]+/).filter(Boolean),
    user: settings.user,
    password: settings.password ?? "",
    dbname: settings.dbname,
  };
}

/** True when the folder `mailserver config` wrote has PostgreSQL maps. */
export const configUsesPgsql = (configDir: string) => {
  try {
    return fs.readFileSync(path.join(configDir, "postfix", "main.cf.snippet"), "utf8").includes("proxy:pgsql:");
  } catch {
    return false;
  }
};

async function withClient<T>(config: pg.ClientConfig, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionTimeoutMillis: 5000, ...config });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The application's own connection: the server answers and is the primary (writes work). */
export async function appConnection(url: string): Promise<Result> {
  return withClient({ connectionString: nodePgConnectionString(url) }, async (c) => {
    const r = await c.query<{ v: string; standby: boolean }>(
      "SELECT current_setting('server_version') AS v, pg_is_in_recovery() AS standby",
    );
    const { v, standby } = r.rows[0]!;
    if (standby)
      return { ok: false, detail: `${new URL(url).host} is a standby (read-only): DATABASE_URL must name the primary` };
    return { ok: true, detail: `PostgreSQL ${v} at ${new URL(url).host}, primary` };
  });
}

const hostPort = (h: string) => {
  const m = /^(?:inet:)?(.*?)(?::(\d+))?$/.exec(h)!;
  return { host: m[1]!, port: m[2] ? Number(m[2]) : 5432 };
};

/** Every read host of the maps answers the mail role, and the role reads every view. */
export async function mailRoleReads(s: MailRoleSettings): Promise<Result> {
  const seen: string[] = [];
  for (const h of s.hosts) {
    // A postgresql:// URI (the form that carries TLS settings) is read with them, as Postfix's libpq reads it.
    let config: pg.ClientConfig;
    if (h.startsWith("postgresql://")) {
      const u = new URL(h);
      u.username = encodeURIComponent(s.user);
      u.password = encodeURIComponent(s.password);
      u.searchParams.delete("passfile"); // Postfix's libpq reads the password there; this check has it already
      config = { connectionString: nodePgConnectionString(u.toString()) };
    } else config = { ...hostPort(h), user: s.user, password: s.password, database: s.dbname };
    let paused: string | undefined;
    try {
      paused = await withClient(config, async (c) => {
        for (const v of MAIL_VIEWS) await c.query(`SELECT 1 FROM ${v} LIMIT 1`);
        // What the generated maps ask (config-database.ts, mailViewFor): a role denied EXECUTE would fail every lookup.
        for (const v of Object.keys(MAIL_LOOKUP_KEYS)) await c.query(`SELECT 1 FROM ${v}_for('') LIMIT 1`);
        // A standby whose replay is paused still answers, with the data of the moment it paused: the mail host
        // goes on with stale maps (PostgreSQL pauses it by itself when the primary raised max_connections & co.).
        const r = await c.query<{ state: string | null }>(
          "SELECT CASE WHEN pg_is_in_recovery() THEN pg_get_wal_replay_pause_state() END AS state",
        );
        const state = r.rows[0]?.state;
        return state && state !== "not paused" ? state : undefined;
      });
      seen.push(h);
    } catch (err) {
      return { ok: false, detail: `${s.user}@${h}: ${(err as Error).message}` };
    }
    if (paused)
      return {
        ok: false,
        detail:
          `${h} is a standby whose replay is ${paused}: it answers with the data of the moment it stopped, without ` +
          "the primary's later changes. PostgreSQL pauses it when the primary raised max_connections, " +
          "max_worker_processes, max_wal_senders, max_prepared_transactions or max_locks_per_transaction above the " +
          "standby's (its log says which: raise it there too and restart it); a pause made by hand ends with " +
          "SELECT pg_wal_replay_resume()",
      };
  }
  return {
    ok: true,
    detail: `${s.user} reads the ${MAIL_VIEWS.length} mail views and their lookup functions on ${seen.join(", ")}`,
  };
}

/** The mail role is no superuser, cannot read or change the tables, and may write mail_quota only. */
export async function mailRoleReadOnly(appUrl: string, role: string): Promise<Result> {
  return withClient({ connectionString: nodePgConnectionString(appUrl) }, async (c) => {
    const r = await c.query<{ super: boolean; tables: string[] }>(
      `SELECT r.rolsuper AS super,
         coalesce(array_agg(t.tablename::text ORDER BY t.tablename) FILTER (WHERE t.tablename <> 'mail_quota' AND
           (has_table_privilege(r.oid, t.schemaname || '.' || t.tablename, 'SELECT,INSERT,UPDATE,DELETE,TRUNCATE'))), '{}'::text[]) AS tables
       FROM pg_roles r CROSS JOIN pg_tables t WHERE r.rolname = $1 AND t.schemaname = 'public' GROUP BY r.rolsuper`,
      [role],
    );
    const row = r.rows[0];
    if (!row) return { ok: false, detail: `role ${role} does not exist (mailserver db-role)` };
    if (row.super)
      return { ok: false, detail: `${role} is a superuser: use a role that reads the views only (mailserver db-role)` };
    if (row.tables.length)
      return {
        ok: false,
        detail: `${role} has rights on tables: ${row.tables.join(", ")} (mailserver db-role resets them)`,
      };
    return { ok: true, detail: `${role} reads the views only and writes mail_quota only` };
  });
}

/** One of the account's domain's aliases (else any), for the alias lookup. */
export async function pgDefaultAlias(url: string, account: string): Promise<string | undefined> {
  const domain = account.slice(account.indexOf("@") + 1);
  return withClient({ connectionString: nodePgConnectionString(url) }, async (c) => {
    const r = await c.query<{ address: string }>(
      "SELECT a.email AS address FROM aliases a JOIN domains d ON d.id = a.domain_id ORDER BY d.name <> $1, a.id LIMIT 1",
      [domain],
    );
    return r.rows[0]?.address;
  });
}

/**
 * The PostgreSQL form of the quota write-back check: the account's mail_quota row is removed, `change` makes
 * Dovecot's quota change (a doveadm save and expunge), and quota_clone must write the row again, through the
 * dict's connection to the primary as the mail role.
 */
export async function pgQuotaWriteBack(
  url: string,
  account: string,
  change: () => void,
  waitMs = 5000,
): Promise<Result> {
  return withClient({ connectionString: nodePgConnectionString(url) }, async (c) => {
    await c.query("DELETE FROM mail_quota WHERE username = $1", [account]);
    change();
    const end = Date.now() + waitMs;
    for (;;) {
      const r = await c.query<{ bytes: number; messages: number }>(
        "SELECT bytes, messages FROM mail_quota WHERE username = $1",
        [account],
      );
      const w = r.rows[0];
      if (w) return { ok: true, detail: `usage written back: ${w.bytes} bytes, ${w.messages} messages` };
      if (Date.now() > end)
        return {
          ok: false,
          detail: `no usage row for ${account} after a doveadm save and expunge (quota_clone, dict service, the mail role's grants?)`,
        };
      await new Promise((res) => setTimeout(res, 100));
    }
  });
}

/**
 * This host's API (per worker, DATABASE_POOL_MAX pooled connections and the one that listens for changes,
 * db/pg/change-listener.ts) beside the connections open now (the other hosts' pools, the services): it fails when
 * they would not fit in max_connections less the superusers' reserve.
 */
export async function connectionBudget(
  url: string,
  workers = Number(workersSetting() ?? os.availableParallelism()) || 1,
  poolMax = databasePoolMax(),
): Promise<Result> {
  return withClient({ connectionString: nodePgConnectionString(url) }, async (c) => {
    // This host's running API (its application_name, from this host's address) is in `api` already: left out of
    // what is open now, so that it is not counted twice.
    const r = await c.query<{ max: string; reserved: string; used: number; local: number }>(
      `SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved,
              count(*) FILTER (WHERE NOT local)::int AS used, count(*) FILTER (WHERE local)::int AS local
         FROM (SELECT application_name = $1 AND client_addr IS NOT DISTINCT FROM inet_client_addr() AS local
                 FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()) a`,
      [API_APPLICATION_NAME],
    );
    const { max, reserved, used, local } = r.rows[0]!;
    const available = Number(max) - Number(reserved);
    const api = workers * (poolMax + 1);
    const detail = `this host's API up to ${workers} workers × (${poolMax} pooled + 1 listening) = ${api}, ${used} open now besides it${local ? ` (and ${local} of its own)` : ""}, max_connections ${max} (${reserved} reserved)`;
    if (api + used > available) {
      return {
        ok: false,
        detail: `${detail}: ${api + used} would not fit in ${available}; lower DATABASE_POOL_MAX or WORKERS (on every host) or raise max_connections`,
      };
    }
    return { ok: true, detail };
  });
}

/** `fn` given read-only queries on one application connection (DATABASE_URL), closed afterwards. */
export function withPgQueries<T>(
  url: string,
  fn: (query: <R>(text: string, values: unknown[]) => Promise<R[]>) => Promise<T>,
): Promise<T> {
  return withClient({ connectionString: nodePgConnectionString(url) }, (c) =>
    fn(async <R>(text: string, values: unknown[]) => (await c.query(text, values)).rows as R[]),
  );
}
