// `db backup`, `db restore`, `db migrate` and `db optimize` on PostgreSQL. The backup is pg_dump's custom
// format (-Fc): one consistent snapshot taken while writers go on (pg_dump reads in one REPEATABLE READ
// transaction), compressed, restorable table by table. Like the SQLite backup it is written under a temporary
// name, checked (pg_restore --list reads the whole archive's table of contents) and only then given its name.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openPostgres } from "@/db/pg/client";
import { nodePgConnectionString, pgBinDir } from "@/lib/config.mjs";
import { checkReadableFile } from "./files";
import { backupTarget, type BackupReport } from "./backup";

/** The PostgreSQL client programs; Debian's postgresql-client-15 (PG_BIN overrides). */
const pgBin = (name: string) => {
  const dir = pgBinDir();
  return fs.existsSync(path.join(dir, name)) ? path.join(dir, name) : name;
};

const REQUIRED_TABLES = ["domains", "accounts", "aliases", "mailing_lists"];

/**
 * The connection for pg_dump and pg_restore: the URL without its password, which goes in PGPASSWORD instead
 * (a command line is readable by every user in ps; a process's environment only by its owner and root).
 */
export function pgToolConnection(url: string): { dbname: string; env: Record<string, string> } {
  // The same sslmode and sslrootcert as the service's own connection (nodePgConnectionString refuses what libpq lacks).
  const u = new URL(nodePgConnectionString(url));
  u.searchParams.delete("uselibpqcompat");
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}

function tool(name: string, args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(pgBin(name), args, { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, ...env } });
  if (r.error) throw new Error(`${name}: ${r.error.message} (install postgresql-client-15)`);
  if (r.status !== 0)
    throw new Error(`${name} failed: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join("; ")}`);
  return r.stdout;
}

/** Reads the archive's table of contents; refuses a file that is not a pg_dump archive of this service. */
export function verifyPgArchive(file: string): void {
  checkReadableFile(file);
  let toc: string;
  try {
    toc = tool("pg_restore", ["--list", file]);
  } catch (err) {
    throw new Error(`${file}: not a pg_dump archive: ${(err as Error).message}`);
  }
  const tables = new Set([...toc.matchAll(/ TABLE DATA public (\S+) /g)].map((m) => m[1]));
  const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
  if (missing.length) throw new Error(`${file}: not a mail-admin database (no table ${missing.join(", ")})`);
}

/** pg_dump -Fc of the database at `url` into `file` (never overwritten), checked, mode 0600. */
export function backupPostgres(url: string, file: string): BackupReport {
  const { target, partial } = backupTarget(file);
  const started = performance.now();
  const conn = pgToolConnection(url);
  try {
    // Created 0600 before pg_dump writes the password hashes into it (pg_dump truncates it, keeping the mode).
    fs.writeFileSync(partial, "", { mode: 0o600, flag: "wx" });
    tool("pg_dump", ["--format=custom", "--file", partial, "--dbname", conn.dbname], conn.env);
    verifyPgArchive(partial);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, ms: performance.now() - started };
}

/** Entries of an archive's table of contents that the restore leaves out, with why. */
const SKIPPED_ENTRIES = [
  // The extension may belong to a superuser (docs/postgresql.md): --clean would drop it and fail ("must be owner of
  // extension pg_trgm"). It is created beforehand instead, if missing.
  /^\d+; \d+ \d+ (EXTENSION|COMMENT - EXTENSION) /,
  // Grants name roles that a new cluster may lack (mail_reader): applied afterwards, for the roles that exist.
  /^\d+; \d+ \d+ ACL /,
];

/**
 * Replaces the database's contents with the archive in one transaction (pg_restore --clean --single-transaction):
 * a restore that fails leaves the database as it was. Stop the service, Postfix and Dovecot first (their open
 * transactions would hold locks the restore waits for). Objects belong to the restoring role (--no-owner, as the
 * cluster's role names may differ); the archive's grants are applied for the roles that exist here, and the
 * others are returned (`mailserver db-role` creates the mail role with its grants).
 */
export async function restorePostgres(url: string, file: string): Promise<{ ms: number; missingRoles: string[] }> {
  verifyPgArchive(file);
  const started = performance.now();
  const toc = tool("pg_restore", ["--list", file]).split("\n");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-restore-"));
  const listFile = path.join(tmp, "restore.list");
  const aclList = path.join(tmp, "grants.list");
  const conn = pgToolConnection(url);
  const client = new pg.Client({ connectionString: nodePgConnectionString(url) });
  await client.connect();
  try {
    fs.writeFileSync(listFile, toc.filter((l) => !SKIPPED_ENTRIES.some((re) => re.test(l))).join("\n"), {
      mode: 0o600,
    });
    fs.writeFileSync(aclList, toc.filter((l) => SKIPPED_ENTRIES[1]!.test(l)).join("\n"), { mode: 0o600 });
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    tool(
      "pg_restore",
      [
        "--clean",
        "--if-exists",
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-acl",
        "--use-list",
        listFile,
        "--dbname",
        conn.dbname,
        file,
      ],
      conn.env,
    );
    const grants = tool("pg_restore", ["--use-list", aclList, "--file", "-", file])
      .split("\n")
      .filter((l) => /^(GRANT|REVOKE) /.test(l));
    const roles = new Set(
      (await client.query<{ r: string }>("SELECT rolname AS r FROM pg_roles")).rows.map((r) => r.r),
    );
    const missing = new Set<string>();
    const statements: string[] = [];
    for (const sql of grants) {
      const grantee = /\b(?:TO|FROM) (?:"((?:[^"]|"")+)"|([a-z_][a-z0-9_$]*))(?: WITH GRANT OPTION)?;$/.exec(sql);
      const role = grantee ? (grantee[1]?.replace(/""/g, '"') ?? grantee[2]!) : undefined;
      if (role && role !== "PUBLIC" && !roles.has(role)) missing.add(role);
      else statements.push(sql);
    }
    await client.query(["BEGIN", ...statements, "COMMIT"].join(";\n"));
    // pg_restore brings rows without the planner's statistics: until autovacuum came round, a list PUT on a restored
    // big list planned a nested loop over every member (list-members-put.ts).
    await client.query("ANALYZE");
    // A backup of an older version gets the newer migrations.
    const db = await openPostgres(url);
    // The restore's rows are loaded before their triggers exist, so processes still running are told here.
    await db.$client.query("NOTIFY data_changed");
    await db.$client.end();
    return { ms: performance.now() - started, missingRoles: [...missing].sort() };
  } finally {
    await client.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * `db optimize` on PostgreSQL: VACUUM (ANALYZE) of every table (autovacuum does this too; after a bulk load the
 * planner's statistics should not wait for it). Readers and writers are not blocked.
 */
export async function optimizePostgres(url: string): Promise<{ ms: number }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: nodePgConnectionString(url) });
  await client.connect();
  try {
    await client.query("VACUUM (ANALYZE)");
  } finally {
    await client.end();
  }
  return { ms: performance.now() - started };
}
