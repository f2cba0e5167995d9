// The `db` command group: daily upkeep, online backup, and restore with the service stopped.
import fs from "node:fs";
import { databasePath } from "@/db/client";
import { optimizeSearchIndex } from "@/lib/server/resources/search-index";
import { purgeExpiredLoginState } from "@/lib/server/caller/session";
import { CLI, UsageError, type Command } from "./args";
import { backupDatabase, restoreDatabase } from "./backup";

export const DB_COMMANDS: Command[] = [
  {
    name: "db optimize",
    summary: "Daily upkeep (systemd timer): merges the account search index, deletes expired sessions and login locks.",
    notes: "About 1 s per 100,000 accounts; readers are not blocked. Run it after a bulk load too.",
    example: `${CLI} db optimize`,
    async run(ctx) {
      const merged = `Search index merged in ${(await optimizeSearchIndex(ctx.db())).ms.toFixed(0)} ms`;
      const purged = await purgeExpiredLoginState(ctx.db());
      return `${merged}; deleted ${purged.sessions} expired sessions and ${purged.throttle} stale login-throttle rows.`;
    },
  },
  {
    name: "db backup",
    args: ["<file>"],
    summary: "Copies the database into a new file while the service runs (SQLite online backup), then checks the copy.",
    notes:
      "The copy is one consistent snapshot: every change committed before it began, nothing half-written. It is\n" +
      "checked with PRAGMA integrity_check and only then given its name (mode 0600). An existing file is never\n" +
      "overwritten. docs/deploy.md has a daily systemd timer that keeps N days.",
    example: `${CLI} db backup /var/backups/mailadmin/mail-$(date +%F).db`,
    async run(ctx, { positionals }) {
      // Opening a missing database would create an empty one, and back that up.
      if (!fs.existsSync(databasePath())) throw new Error(`${databasePath()} does not exist (DATABASE_PATH)`);
      const report = await backupDatabase(ctx.db().$client, positionals[0]!);
      return `Backup written to ${report.file} (${report.bytes} bytes, ${report.ms.toFixed(0)} ms); integrity_check ok.`;
    },
  },
  {
    name: "db restore",
    args: ["<file>"],
    summary: "Replaces the database (DATABASE_PATH) with a backup; stop the service, Postfix and Dovecot first.",
    notes:
      "The backup is checked with integrity_check first. The command refuses while any process has the database\n" +
      "open (it looks in /proc; run it as root or as the service's user). The replaced database is kept beside it\n" +
      "as <name>.before-restore-<time>, and the restored file gets its owner, group and mode.",
    example: `${CLI} db restore /var/backups/mailadmin/mail-2026-11-23.db --yes`,
    options: { yes: { type: "boolean", help: "confirms replacing the current database (required)" } },
    run(_ctx, { positionals, values }) {
      if (values.yes !== true) throw new UsageError("db restore: refusing to replace the database without --yes");
      const report = restoreDatabase(positionals[0]!, databasePath());
      return `Restored ${report.target}${report.previous ? `; the previous database is kept as ${report.previous}` : ""}.`;
    },
  },
];
