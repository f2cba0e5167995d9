// `db backup` and `db restore`. The whole hosting state is one SQLite file written all the time (API, panel,
// Dovecot's quota write-back), so a file copy is not a backup: SQLite's online backup copies a consistent snapshot
// while writers go on (WAL: a reader never blocks them), and the copy is checked before it is kept.
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { checkReadableFile } from "./files";

export interface BackupReport {
  file: string;
  bytes: number;
  ms: number;
}

/** The tables a database of this service has; a file without them is not one of our backups. */
const REQUIRED_TABLES = ["domains", "accounts", "aliases", "mailing_lists"];

/** Opens `file` and runs integrity_check; throws naming the problem. Also refuses a file that is not ours. */
export function verifyDatabaseFile(file: string): void {
  checkReadableFile(file);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new Error(`${file}: cannot open as SQLite: ${(err as Error).message}`);
  }
  try {
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== "ok");
    if (problems.length) throw new Error(`${file}: integrity_check failed: ${problems.slice(0, 3).join("; ")}`);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (r) => r.name,
      ),
    );
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length) throw new Error(`${file}: not a mail-admin database (no table ${missing.join(", ")})`);
  } catch (err) {
    if ((err as Error).message.startsWith(file)) throw err;
    throw new Error(`${file}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/** The backup's absolute path (which must not exist yet, in an existing folder) and its temporary name. */
export function backupTarget(file: string): { target: string; partial: string } {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new Error(`${target} already exists; a backup never overwrites a file`);
  if (!fs.existsSync(path.dirname(target)))
    throw new Error(`${path.dirname(target)} does not exist; create the backup folder first`);
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  return { target, partial };
}

/**
 * Copies the open database into `file` with SQLite's online backup, then makes the copy a self-contained file
 * (rollback journal, no -wal beside it) and checks it. Written under a temporary name and renamed when good, so
 * `file` never holds a half-written or unchecked copy.
 */
export async function backupDatabase(source: Database.Database, file: string): Promise<BackupReport> {
  const { target, partial } = backupTarget(file);
  const started = performance.now();
  // Each step copies under one read transaction; a write by another connection between steps restarts the copy.
  // Asking for every remaining page in one step makes the copy one snapshot, which in WAL mode does not block
  // writers, so a busy service cannot keep the backup from finishing.
  // Created 0600 before the password hashes are copied into it; SQLite gives its journal and WAL the file's mode.
  fs.writeFileSync(partial, "", { mode: 0o600, flag: "wx" });
  await source.backup(partial, { progress: () => 1 << 30 });
  const copy = new Database(partial);
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  verifyDatabaseFile(partial);
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, target);
  return { file: target, bytes: fs.statSync(target).size, ms: performance.now() - started };
}

/** Processes other than this one holding the database, its -wal or its -shm open (Linux /proc; needs the right to look). */
export function processesUsing(dbFile: string): { pids: number[]; complete: boolean } {
  const wanted = new Set(["", "-wal", "-shm"].map((s) => path.resolve(dbFile) + s));
  const pids: number[] = [];
  let complete = true;
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return { pids, complete: false };
  }
  for (const pid of entries) {
    if (Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EACCES") complete = false;
      continue;
    }
    for (const fd of fds) {
      try {
        if (wanted.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))) {
          pids.push(Number(pid));
          break;
        }
      } catch {
        // the descriptor closed meanwhile
      }
    }
  }
  return { pids, complete };
}

/** "process 3504 (node … mailserver policy)": its command line, shortened, so the operator knows what to stop. */
function describeProcess(pid: number): string {
  let command = "";
  try {
    command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    // gone meanwhile
  }
  return command ? `process ${pid} (${command.length > 80 ? `${command.slice(0, 79)}…` : command})` : `process ${pid}`;
}

export interface RestoreReport {
  target: string;
  /** Where the database that was replaced went (with its -wal and -shm), or undefined when there was none. */
  previous?: string;
}

/**
 * Replaces the database at `target` with the checked copy `file`. Refuses while any process (the service, Postfix's
 * proxymap, Dovecot's auth or dict) has the database open. The replaced database is kept beside it, moved with its
 * -wal and -shm so that no stale WAL is ever applied to the restored file; owner, group and mode are carried over.
 */
export function restoreDatabase(file: string, target: string): RestoreReport {
  const source = path.resolve(file);
  verifyDatabaseFile(source);
  const users = processesUsing(target);
  if (users.pids.length) {
    throw new Error(
      `${target} is in use by ${users.pids.map(describeProcess).join(", ")}: stop every process that opens it first ` +
        "(the service, the policy, list and events services, Postfix and Dovecot)",
    );
  }
  // Another user's process (Postfix's proxymap, Dovecot's dict) could have it open unseen: replacing the file
  // under it would leave it writing to the old one.
  if (!users.complete) {
    throw new Error(
      `cannot see every process's open files in /proc, so cannot tell whether ${target} is in use: run db restore as root`,
    );
  }
  const incoming = `${target}.restoring`;
  fs.copyFileSync(source, incoming);
  const fd = fs.openSync(incoming, "r+");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  let previous: string | undefined;
  if (fs.existsSync(target)) {
    const st = fs.statSync(target);
    fs.chownSync(incoming, st.uid, st.gid);
    fs.chmodSync(incoming, st.mode & 0o7777);
    previous = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, previous + suffix);
    }
  }
  fs.renameSync(incoming, target);
  return { target, previous };
}
