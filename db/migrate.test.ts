// db/migrate.mjs on SQLite: a fresh database gets the baseline, one migrated by the release before it (its newest
// migration dated like the baseline) is left as it is, and one migrated by an older release is refused untouched.
// The PostgreSQL twin is in db/pg/pg.test.ts. Every entry point that migrates says how to write a DATABASE_URL whose
// password has URL characters in it, as every other command does.
import type Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { drizzle } from "drizzle-orm/better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodePgConnectionString } from "@/lib/config.mjs";
import { freePort } from "@/lib/mailserver/sandbox/processes";
import { openSqliteFile, runSqliteMigrations } from "./migrate.mjs";

const folder = path.join("db", "sqlite", "migrations");
const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
  entries: { when: number; tag: string }[];
};
const baseline = journal.entries[0]!.when;
/** When release 0.1.0's newest SQLite migration (0022_sieve_scripts_view) is dated: every database it migrated ends there. */
const RELEASE_0_1_0_NEWEST = 1796000022000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-migrate-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A database whose migrations table holds rows dated `times`, as drizzle writes them, and one table of its own. */
function migratedBefore(name: string, times: number[]): Database.Database {
  const sqlite = openSqliteFile(path.join(dir, name));
  sqlite.exec(`CREATE TABLE __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric);
    CREATE TABLE kept (id integer PRIMARY KEY)`);
  for (const t of times) sqlite.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('h', ?)").run(t);
  return sqlite;
}

/** Everything that could change: the schema and the migrations table's rows. */
const state = (sqlite: Database.Database) => ({
  schema: sqlite.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all(),
  migrations: sqlite.prepare("SELECT id, hash, created_at FROM __drizzle_migrations ORDER BY id").all(),
});

/** A copy of the migrations folder whose journal ends after its first `count` migrations. */
function firstMigrations(count: number): string {
  const to = fs.mkdtempSync(path.join(dir, "first-"));
  fs.mkdirSync(path.join(to, "meta"));
  const entries = journal.entries.slice(0, count);
  for (const e of entries) fs.copyFileSync(path.join(folder, `${e.tag}.sql`), path.join(to, `${e.tag}.sql`));
  fs.writeFileSync(path.join(to, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  return to;
}

/** A copy of the migrations folder whose journal ends at the baseline. */
const baselineOnly = () => firstMigrations(1);

describe("SQLite migrations from the baseline", () => {
  it("creates a fresh database from the baseline and the migrations after it, dated as the journal says", () => {
    const sqlite = openSqliteFile(path.join(dir, "fresh.db"));
    expect(runSqliteMigrations(drizzle(sqlite), folder)).toBe(journal.entries.length);
    expect(sqlite.prepare("SELECT created_at FROM __drizzle_migrations ORDER BY id").all()).toEqual(
      journal.entries.map((e) => ({ created_at: e.when })),
    );
    expect(sqlite.prepare("SELECT count(*) AS n FROM accounts").get()).toEqual({ n: 0 });
    sqlite.close();
  });

  it("leaves a database of the release before the baseline as it is (its newest migration is dated like it)", () => {
    expect(baseline).toBe(RELEASE_0_1_0_NEWEST);
    const sqlite = migratedBefore("current.db", [RELEASE_0_1_0_NEWEST - 5000, RELEASE_0_1_0_NEWEST]);
    const before = state(sqlite);
    expect(runSqliteMigrations(drizzle(sqlite), baselineOnly())).toBe(0);
    expect(state(sqlite)).toEqual(before);
    sqlite.close();
  });

  it("upgrades a database at the baseline: the greylist's expiry index replaces the one on first_seen", () => {
    const sqlite = openSqliteFile(path.join(dir, "upgraded.db"));
    expect(runSqliteMigrations(drizzle(sqlite), baselineOnly())).toBe(1);
    const indexes = () =>
      sqlite
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'greylist' AND sql IS NOT NULL")
        .all();
    expect(indexes()).toEqual([{ name: "greylist_first_seen" }]);
    expect(runSqliteMigrations(drizzle(sqlite), folder)).toBe(journal.entries.length - 1);
    expect(indexes()).toEqual([{ name: "greylist_expiry" }]);
    sqlite.close();
  });

  it("gives each account with its autoresponder on a new Sieve script id at 0009_autoresponder_verified_senders (Dovecot keeps compiled scripts under the id)", () => {
    const at = journal.entries.findIndex((e) => e.tag === "0009_autoresponder_verified_senders");
    expect(at).toBeGreaterThan(0);
    const sqlite = openSqliteFile(path.join(dir, "sieve-ids.db"));
    expect(runSqliteMigrations(drizzle(sqlite), firstMigrations(at))).toBe(at);
    sqlite.exec(`INSERT INTO domains (name) VALUES ('ids.test');
      INSERT INTO accounts (domain_id, name, email, password_hash, search_key, autoresponder_mode, autoresponder_body)
        VALUES (1, 'ola', 'ola@ids.test', 'x', 'ola', 1, 'Away');`);
    const script = () =>
      sqlite.prepare("SELECT id, script FROM mail_sieve_scripts WHERE name = 'autoresponder'").get() as {
        id: string;
        script: string;
      };
    const before = script();
    expect(before.script).not.toContain("X-Mailadmin-Sender-Verified");
    expect(runSqliteMigrations(drizzle(sqlite), firstMigrations(at + 1))).toBe(1);
    const after = script();
    expect(after.script).toContain('if header :is "X-Mailadmin-Sender-Verified" "1" {');
    expect(after.id).not.toBe(before.id);
    sqlite.close();
  });

  it("refuses a database migrated by an older release, naming the release to migrate it with first, and changes nothing", () => {
    const sqlite = migratedBefore("old.db", [RELEASE_0_1_0_NEWEST - 5000, RELEASE_0_1_0_NEWEST - 3000]);
    const before = state(sqlite);
    expect(() => runSqliteMigrations(drizzle(sqlite), folder)).toThrow(
      /older than the schema baseline of release 0\.2\.0.*release 0\.1\.0 \(commit dda88ef\)/,
    );
    expect(state(sqlite)).toEqual(before);
    sqlite.close();
  });
});

describe("a DATABASE_URL whose password has unencoded URL characters", () => {
  it("db migrate, npm run db:migrate and the server's start say how to write it, not node's \"Invalid URL\"", async () => {
    // As an operator writes the password `pa#ss/1x` into the URL: it does not parse.
    const url = "postgres://mailadmin:pa#ss/1x@127.0.0.1:5432/mailadmin";
    let message = "";
    try {
      nodePgConnectionString(url);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^DATABASE_URL is not a valid URL: percent-encode /);
    const env = { ...process.env, DATABASE_URL: url, PORT: String(await freePort()), WORKERS: "1" };
    const run = (...args: string[]) => spawnSync(process.execPath, args, { env, encoding: "utf8", timeout: 60_000 });
    const tsx = ["--conditions=react-server", "--import", "tsx"];
    // Each said only "Invalid URL" before (new URL() in migrateDatabase ran ahead of nodePgConnectionString).
    const entries = [
      [[...tsx, "lib/cli/index.ts", "db", "migrate"], `error: ${message}`],
      [["--import", "tsx", "db/migrate-cli.ts"], `error: ${message}`],
      // `npm start`: under systemd a restart loop, so the journal's one line must carry the fix.
      [["lib/runtime/server.mjs"], `mail-admin: the database was not migrated: ${message}`],
    ] as const;
    // All three compared at once: a failure shows each one's output.
    const got = entries.map(([args]) => {
      const r = run(...args);
      return { args, status: r.status, stdout: r.stdout, stderr: r.stderr };
    });
    expect(got).toEqual(entries.map(([args, line]) => ({ args, status: 1, stdout: "", stderr: `${line}\n` })));
  });
});
