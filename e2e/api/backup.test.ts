// `db backup` while the service is busy: the operator CLI, in its own process, copies the main test
// server's database while 1,000 account PUTs run against that server over HTTP. The copy must open, pass
// integrity_check, and hold every change the server had answered before the backup was started.
import { onPostgres } from "../support/test-database";
import Database from "better-sqlite3";
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, createAccount, expectStatus, postmaster } from "./client";

const D = "backup.example.com";
const admin = postmaster(D);
const ROOT = path.resolve(import.meta.dirname, "../..");
const NODE_TSX = ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts"];
const ACCOUNTS = 40;
const WORKERS = 8;
const PUTS = 1000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cliEnv = (dbPath: string) => ({ ...process.env, DATABASE_PATH: dbPath });

/** The CLI in its own process, not blocking this one's event loop (the PUTs go on meanwhile). */
function cliAsync(dbPath: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...NODE_TSX, ...args],
      { cwd: ROOT, env: cliEnv(dbPath), encoding: "utf8" },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function cli(dbPath: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...NODE_TSX, ...args], { cwd: ROOT, env: cliEnv(dbPath), encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const name = (i: number) => `b${i}`;

// SQLite's online backup and restore; PostgreSQL's pg_dump/pg_restore are tested in lib/cli/pg-backup.test.ts.
describe.skipIf(onPostgres())("db backup while the service writes", () => {
  const file = path.join(dir, "mail-backup.db");

  it("a backup taken during 1,000 account PUTs opens, passes integrity_check and holds every answered change", async () => {
    for (let i = 0; i < ACCOUNTS; i++) await createAccount(D, name(i), { description: "v-1" });

    // PUT number n sets account n % ACCOUNTS's description to vN. Worker w sends the numbers n % WORKERS == w one
    // after another, and WORKERS divides ACCOUNTS, so each account has one worker and its PUTs are ordered:
    // "the last one answered before the backup started" is well defined.
    const answered = new Map<string, number>(); // account -> highest PUT number answered
    let done = 0;
    let backupStarted: Map<string, number> | undefined;
    let doneAtStart = 0;
    let backup: Promise<{ code: number; stdout: string; stderr: string }> | undefined;
    let doneAtEnd = 0;
    const worker = async (w: number) => {
      for (let n = w; n < PUTS; n += WORKERS) {
        const account = name(n % ACCOUNTS);
        const res = await api("PUT", `emails/${D}/${account}`, { auth: admin, body: { description: `v${n}` } });
        expectStatus(res, 200);
        answered.set(account, n);
        done++;
        if (done === 150 && !backup) {
          backupStarted = new Map(answered);
          doneAtStart = done;
          backup = cliAsync(inject("mainDbPath"), "db", "backup", file).then((r) => {
            doneAtEnd = done;
            return r;
          });
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    const result = await backup!;
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Backup written to .+ \(\d+ bytes, \d+ ms\); integrity_check ok\.\n$/);
    // The PUTs ran while the backup was taken: some were answered between its start and its end.
    expect(doneAtEnd).toBeGreaterThan(doneAtStart);
    expect(doneAtStart).toBeLessThan(PUTS);

    // A self-contained file (no -wal beside it), readable by its owner only.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const copy = new Database(file, { readonly: true, fileMustExist: true });
    try {
      expect(copy.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
      const rows = copy
        .prepare("SELECT a.name, a.description FROM accounts a JOIN domains d ON d.id = a.domain_id WHERE d.name = ?")
        .all(D) as { name: string; description: string }[];
      expect(rows).toHaveLength(ACCOUNTS + 1); // with the postmaster
      const inCopy = new Map(rows.map((r) => [r.name, Number(r.description.slice(1))]));
      for (const [account, n] of backupStarted!) {
        // Every change answered before the backup started is in it; a later one may be too, never a torn value.
        expect(inCopy.get(account), account).toBeGreaterThanOrEqual(n);
        expect(inCopy.get(account)! <= answered.get(account)!, account).toBe(true);
      }
    } finally {
      copy.close();
    }
  }, 90_000); // 1,000 PUTs with their audit entries: 13 s on a quiet CI host, over 30 s on a shared one

  it("never overwrites an existing file", () => {
    const before = fs.readFileSync(file);
    const r = cli(inject("mainDbPath"), "db", "backup", file);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: ${file} already exists; a backup never overwrites a file\n`);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it("db restore refuses while the service has the database open", () => {
    const r = cli(inject("mainDbPath"), "db", "restore", file, "--yes");
    expect(r.code).toBe(1);
    // Each process named with its command line (here the API server's), so the operator knows which unit to stop.
    expect(r.stderr).toMatch(
      /^error: .+ is in use by process \d+ \(.*node.*\).*: stop every process that opens it first \(the service, the policy, list and events services, Postfix and Dovecot\)\n$/,
    );
  });

  it("db restore puts the backup in place of a stopped database and keeps the replaced one", async () => {
    const target = path.join(dir, "restored.db");
    // Commands other than db migrate (and demo) refuse a database file that does not exist.
    const missing = cli(target, "domain", "add", "before-restore.example", "--postmaster-password", "Restore-pass1");
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining(`no database at ${target}`)]);
    expect(fs.existsSync(target)).toBe(false);
    expect(cli(target, "db", "migrate").code).toBe(0);
    const created = cli(target, "domain", "add", "before-restore.example", "--postmaster-password", "Restore-pass1");
    expect(created.code, created.stderr).toBe(0);
    fs.chmodSync(target, 0o640);
    const r = cli(target, "db", "restore", file, "--yes");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const previous = /previous database is kept as (\S+)\.$/m.exec(r.stdout)?.[1];
    expect(previous).toBeDefined();
    // The postmaster of the domain added after the backup is gone, its mailbox (if any) left where it is.
    expect(r.stdout).toContain("\n  not in the backup: postmaster@before-restore.example (mailbox on no host)\n");
    expect(fs.statSync(target).mode & 0o777).toBe(0o640);
    const names = (f: string) => {
      const db = new Database(f, { readonly: true });
      try {
        return (db.prepare("SELECT name FROM domains ORDER BY name").all() as { name: string }[]).map((d) => d.name);
      } finally {
        db.close();
      }
    };
    expect(names(target)).toContain(D);
    expect(names(target)).not.toContain("before-restore.example");
    expect(names(previous!)).toEqual(["before-restore.example"]);
    // The restored database is one the service can use: the CLI reads it.
    const shown = await cliAsync(target, "domain", "show", D);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ account_limit_usage: expect.anything() as unknown });

    const notOurs = path.join(dir, "not-a-database.db");
    fs.writeFileSync(notOurs, "hello");
    const refused = cli(target, "db", "restore", notOurs, "--yes");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*not-a-database\.db: (cannot open as SQLite|file is not a database)/);
  });

  it("refuses db restore without --yes", () => {
    const r = cli(path.join(dir, "restored.db"), "db", "restore", file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: db restore: refusing to replace the database without --yes\n");
  });
});
