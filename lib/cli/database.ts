// The `db` command group: daily upkeep, online backup, and restore with the service stopped.
import fs from "node:fs";
import { databasePath } from "@/db/client";
import { migrateDatabase } from "@/db/migrate.mjs";
import { postgresUrl } from "@/lib/config.mjs";
import { optimizeSearchIndex } from "@/lib/server/resources/search-index";
import { purgeExpiredLoginState } from "@/lib/server/caller/session";
import { CLI, UsageError, type Command } from "./args";
import { backupDatabase, restoreDatabase } from "./backup";
import { backupPostgres, optimizePostgres, restorePostgres } from "./pg-backup";
import { postgresPlacements, restoreReport, sqlitePlacements } from "./restore-report";
import { shellWord } from "@/lib/mailserver/shell-word";

export const DB_COMMANDS: Command[] = [
  {
    name: "db optimize",
    summary:
      "Daily upkeep (systemd timer): deletes expired sessions and login locks, then merges the account search index " +
      "(SQLite) or runs VACUUM (ANALYZE) (PostgreSQL).",
    notes: "About 1 s per 100,000 accounts; readers are not blocked. Run it after a bulk load too.",
    example: `${CLI} db optimize`,
    async run(ctx) {
      // The same housekeeping on both engines: expired sessions and stale login locks go first, then the
      // engine's own upkeep (SQLite: the search index merged; PostgreSQL: VACUUM (ANALYZE), which then sees
      // the deleted rows).
      const purged = await purgeExpiredLoginState(ctx.db());
      const url = postgresUrl();
      const upkeep = url
        ? `VACUUM (ANALYZE) done in ${(await optimizePostgres(url)).ms.toFixed(0)} ms`
        : `Search index merged in ${(await optimizeSearchIndex(ctx.db())).ms.toFixed(0)} ms`;
      return `${upkeep}; deleted ${purged.sessions} expired sessions and ${purged.throttle} stale login-throttle rows.`;
    },
  },
  {
    name: "db backup",
    args: ["<file>"],
    summary:
      "Copies the database into a new file while the service runs (SQLite online backup, or pg_dump -Fc), then checks it.",
    notes:
      "The copy is one consistent snapshot: every change committed before it began, nothing half-written. It is\n" +
      "checked (SQLite: PRAGMA integrity_check; PostgreSQL: pg_restore --list reads the whole archive) and only\n" +
      "then given its name (mode 0600). An existing file is never overwritten. docs/deploy.md has a daily systemd\n" +
      "timer that keeps N days.",
    example: `${CLI} db backup /var/backups/mailadmin/mail-$(date +%F).backup`,
    async run(ctx, { positionals }) {
      const url = postgresUrl();
      if (url) {
        const r = backupPostgres(url, positionals[0]!);
        return `Backup written to ${r.file} (${r.bytes} bytes, ${r.ms.toFixed(0)} ms); pg_dump archive checked.`;
      }
      // Opening a missing database would create an empty one, and back that up.
      if (!fs.existsSync(databasePath())) throw new Error(`${databasePath()} does not exist (DATABASE_PATH)`);
      const report = await backupDatabase(ctx.db().$client, positionals[0]!);
      return `Backup written to ${report.file} (${report.bytes} bytes, ${report.ms.toFixed(0)} ms); integrity_check ok.`;
    },
  },
  {
    name: "db restore",
    args: ["<file>"],
    summary:
      "Replaces the database (DATABASE_PATH, or DATABASE_URL's) with a backup; stop the service, Postfix and Dovecot first.",
    notes:
      "SQLite: the backup is checked with integrity_check first. The command refuses while any process has the\n" +
      "database open (it looks in /proc; run it as root or as the service's user). The replaced database is kept\n" +
      "beside it as <name>.before-restore-<time>, and the restored file gets its owner, group and mode.\n" +
      "PostgreSQL: the archive is checked with pg_restore --list, then the tables are replaced in one transaction;\n" +
      "no copy of the replaced data is kept and other processes are not looked for (they may run on other hosts):\n" +
      "stop them, and `db backup` the current state first (docs/deploy.md).",
    example: `${CLI} db restore /var/backups/mailadmin/mail-2026-11-23.backup --yes`,
    options: { yes: { type: "boolean", help: "confirms replacing the current database (required)" } },
    // Migrating a new database first would leave an empty schema behind a restore that fails.
    ownConnection: true,
    async run(_ctx, { positionals, values }) {
      if (values.yes !== true) throw new UsageError("db restore: refusing to replace the database without --yes");
      const url = postgresUrl();
      if (url) {
        const before = await postgresPlacements(url);
        const r = await restorePostgres(url, positionals[0]!);
        const report = restoreReport(before, await postgresPlacements(url));
        const name = decodeURIComponent(new URL(url).pathname.slice(1));
        // The owner usually lacks CREATEROLE (docs/postgresql.md), so the hint is the pipe into psql as postgres, over
        // the local socket of the cluster's port (without -p, psql went to the cluster on 5432).
        const port = new URL(url).port;
        const missing = r.missingRoles.length
          ? ` Not granted (no such role here): ${r.missingRoles.join(", ")}; with MAIL_DB_PASSWORD set to the ` +
            `password in the mail hosts' maps, run \`${CLI} mailserver db-role --print | runuser -u postgres -- psql ` +
            `-v ON_ERROR_STOP=1${port && port !== "5432" ? ` -p ${port}` : ""} -d ${shellWord(name)} -f -\` ` +
            "(docs/postgresql.md)."
          : "";
        return [`Restored ${positionals[0]!} into ${name} in ${r.ms.toFixed(0)} ms.${missing}`, ...report].join("\n");
      }
      const before = sqlitePlacements(databasePath());
      const restored = restoreDatabase(positionals[0]!, databasePath());
      const report = restoreReport(before, sqlitePlacements(databasePath()));
      return [
        `Restored ${restored.target}${restored.previous ? `; the previous database is kept as ${restored.previous}` : ""}.`,
        ...report,
      ].join("\n");
    },
  },
  {
    name: "db migrate",
    summary:
      "Creates the database if needed and applies pending migrations (SQLite file or DATABASE_URL's PostgreSQL).",
    notes: "Every process also migrates when it opens the database; on PostgreSQL an advisory lock lets one at a time.",
    // The URL from the service's environment file, as the docs do: a password on a command line is seen by `ps`.
    example: `( set -a; . /etc/mailadmin/service.env; ${CLI} db migrate )`,
    // The same runner and line as `npm run db:migrate`: which database, and how many migrations it applied. Its own
    // connection: migrated by the CLI first (as every other command's database is), a fresh PostgreSQL database got
    // every migration before this ran, and the line said "already up to date".
    ownConnection: true,
    run: () => migrateDatabase({ refuseStandby: true }),
  },
];
