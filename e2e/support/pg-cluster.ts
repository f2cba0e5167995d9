// Private PostgreSQL clusters for tests and CI: a copy of one `initdb` output in a fresh temp folder, run as the
// postgres user, `postgres` on 127.0.0.1 and a free (or given) port, one database. Nothing of the system's
// PostgreSQL is used.
// startReplica() makes a streaming standby of a primary (pg_basebackup -R). Debian's binaries live in
// /usr/lib/postgresql/15/bin (PG_BIN overrides).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/lib/mailserver/sandbox/processes";

export { freePort };

export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface PgCluster {
  /** postgres://<user>:<password>@127.0.0.1:<port>/<database> of the database's owner. */
  url: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  dataDir: string;
  /** Connection URL of another database or role on the same cluster. */
  urlFor(opts: { user?: string; password?: string; database?: string }): string;
  /** Runs SQL through psql as the superuser (postgres, over the Unix socket); returns stdout. */
  psql(sql: string, database?: string): string;
  /** Stops the server (fast shutdown) and removes the folder. Idempotent. */
  stop(): Promise<void>;
  /** Stops the server only (the folder stays), to test what happens while it is down. */
  kill(): Promise<void>;
  /** Starts the server again on the same folder and port (after kill(); a standby when standby.signal is there). */
  start(): Promise<void>;
}

export interface PgClusterOptions {
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  /** Extra postgresql.conf lines. */
  settings?: Record<string, string | number>;
  /** Allow streaming replication connections for this role (created with REPLICATION). */
  replicationUser?: string;
  log?: (line: string) => void;
}

const isRoot = () => process.getuid?.() === 0;

/**
 * As root, the binaries run as the postgres user (initdb and postgres refuse to run as root): spawned with its
 * uid/gid directly rather than through runuser, so that signals reach the server itself.
 */
function postgresIds(): { uid: number; gid: number } | Record<string, never> {
  if (!isRoot()) return {};
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** Runs one of PostgreSQL's programs (as the postgres user when root); its stdout and stderr, or throws with them. */
export function runPgBin(bin: string, args: string[], env?: Record<string, string>): string {
  const r = spawnSync(path.join(PG_BIN, bin), args, {
    encoding: "utf8",
    cwd: "/",
    env: { ...process.env, ...env },
    ...postgresIds(),
  });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return `${r.stdout}${r.stderr}`;
}

function run(bin: string, args: string[], input?: string, env?: Record<string, string>): string {
  const r = spawnSync(path.join(PG_BIN, bin), args, {
    encoding: "utf8",
    input,
    cwd: "/",
    env: { ...process.env, ...env },
    ...postgresIds(),
  });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function makeDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  if (isRoot()) spawnSync("chown", ["postgres:postgres", dir]);
  return dir;
}

async function waitReady(socketDir: string, port: number, child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode} while starting`);
    const r = spawnSync(path.join(PG_BIN, "pg_isready"), ["-h", socketDir, "-p", String(port), "-q"]);
    if (r.status === 0) return;
    if (Date.now() > deadline) throw new Error(`postgres on port ${port} not ready after ${timeoutMs} ms`);
    await new Promise((r2) => setTimeout(r2, 100));
  }
}

function startServer(dataDir: string, socketDir: string, port: number, log?: (line: string) => void): ChildProcess {
  const child = spawn(
    path.join(PG_BIN, "postgres"),
    ["-D", dataDir, "-p", String(port), "-k", socketDir, "-h", "127.0.0.1"],
    {
      stdio: ["ignore", "pipe", "pipe"],
      cwd: "/",
      ...postgresIds(),
    },
  );
  const logLines = (b: Buffer) => log?.(b.toString().trimEnd());
  child.stdout?.on("data", logLines);
  child.stderr?.on("data", logLines);
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // SIGINT: "fast" shutdown (disconnects clients, no waiting for them).
  child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

function cluster(
  dataDir: string,
  socketDir: string,
  port: number,
  child: ChildProcess,
  db: { database: string; user: string; password: string },
  log?: (line: string) => void,
): PgCluster {
  let stopped = false;
  let server = child;
  const urlFor = (o: { user?: string; password?: string; database?: string }) =>
    `postgres://${encodeURIComponent(o.user ?? db.user)}:${encodeURIComponent(o.password ?? db.password)}@127.0.0.1:${port}/${encodeURIComponent(o.database ?? db.database)}`;
  return {
    url: urlFor({}),
    host: "127.0.0.1",
    port,
    ...db,
    dataDir,
    urlFor,
    psql: (sql, database = db.database) =>
      run(
        "psql",
        [
          "-X",
          "-q",
          "-A",
          "-t",
          "-v",
          "ON_ERROR_STOP=1",
          "-h",
          socketDir,
          "-p",
          String(port),
          "-d",
          database,
          "-f",
          "-",
        ],
        sql,
      ),
    async kill() {
      await stopChild(server);
    },
    async start() {
      if (server.exitCode === null && server.signalCode === null) return;
      server = startServer(dataDir, socketDir, port, log);
      await waitReady(socketDir, port, server);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopChild(server);
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    },
  };
}

const quoteLit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const quoteId = (s: string) => `"${s.replace(/"/g, '""')}"`;

const INITDB_ARGS = [
  "-U",
  "postgres",
  "--auth-local=trust",
  "--auth-host=scram-sha-256",
  "-E",
  "UTF8",
  "--locale=C.UTF-8",
  "--no-sync",
];

/**
 * A fresh data folder at `dataDir`: a copy of one initdb output kept in the temp folder per PostgreSQL build (a
 * copy takes a third of an initdb's time). Made in a folder of its own and renamed, so that concurrent tests agree.
 */
function copyTemplate(dataDir: string): void {
  const version = spawnSync(path.join(PG_BIN, "postgres"), ["--version"], { encoding: "utf8" }).stdout.trim();
  const key = createHash("sha256")
    .update(`${PG_BIN}\0${version}\0${INITDB_ARGS.join(" ")}`)
    .digest("hex");
  const template = path.join(os.tmpdir(), `mailadmin-pg-template-${key.slice(0, 16)}`);
  if (!fs.existsSync(path.join(template, "PG_VERSION"))) {
    const fresh = makeDir("pg-template-");
    run("initdb", ["-D", path.join(fresh, "data"), ...INITDB_ARGS]);
    try {
      fs.renameSync(path.join(fresh, "data"), template);
    } catch {
      // Another process made it first: theirs is the same.
    }
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  const r = spawnSync("cp", ["-a", template, dataDir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`copying the initdb template failed: ${r.stderr}`);
}

/** A fresh cluster with one database owned by one password role. */
export async function startPgCluster(opts: PgClusterOptions = {}): Promise<PgCluster> {
  const root = makeDir("pgcluster-");
  const dataDir = path.join(root, "data");
  const socketDir = root;
  const db = {
    database: opts.database ?? "mailadmin",
    user: opts.user ?? "mailadmin",
    password: opts.password ?? "mailadmin-test",
  };
  try {
    copyTemplate(dataDir);
    const settings: Record<string, string | number> = {
      listen_addresses: "'127.0.0.1'",
      fsync: "off",
      synchronous_commit: "off",
      full_page_writes: "off",
      shared_buffers: "'32MB'",
      max_connections: 100,
      wal_level: "replica",
      max_wal_senders: 5,
      ...opts.settings,
    };
    fs.appendFileSync(
      path.join(dataDir, "postgresql.conf"),
      "\n" +
        Object.entries(settings)
          .map(([k, v]) => `${k} = ${v}`)
          .join("\n") +
        "\n",
    );
    if (opts.replicationUser) {
      fs.appendFileSync(
        path.join(dataDir, "pg_hba.conf"),
        `host replication ${opts.replicationUser} 127.0.0.1/32 scram-sha-256\n`,
      );
    }
    const port = opts.port ?? (await freePort());
    const child = startServer(dataDir, socketDir, port, opts.log);
    await waitReady(socketDir, port, child);
    const c = cluster(dataDir, socketDir, port, child, db, opts.log);
    c.psql(
      `CREATE ROLE ${quoteId(db.user)} LOGIN PASSWORD ${quoteLit(db.password)}; CREATE DATABASE ${quoteId(db.database)} OWNER ${quoteId(db.user)};`,
      "postgres",
    );
    if (opts.replicationUser) {
      c.psql(
        `CREATE ROLE ${quoteId(opts.replicationUser)} LOGIN REPLICATION PASSWORD ${quoteLit(db.password)};`,
        "postgres",
      );
    }
    return c;
  } catch (e) {
    fs.rmSync(root, { recursive: true, force: true });
    throw e;
  }
}

export interface ReplicaOptions {
  port?: number;
  /** The primary's REPLICATION role (startPgCluster's replicationUser); its password is the primary's. */
  replicationUser: string;
  log?: (line: string) => void;
}

/** A hot standby streaming from `primary`: pg_basebackup -R writes standby.signal and primary_conninfo. */
export async function startReplica(primary: PgCluster, opts: ReplicaOptions): Promise<PgCluster> {
  const root = makeDir("pgreplica-");
  const dataDir = path.join(root, "data");
  try {
    run(
      "pg_basebackup",
      [
        "-h",
        "127.0.0.1",
        "-p",
        String(primary.port),
        "-U",
        opts.replicationUser,
        "-D",
        dataDir,
        "-R",
        "-X",
        "stream",
        "-c",
        "fast",
        "--no-sync",
      ],
      undefined,
      { PGPASSWORD: primary.password },
    );
    fs.appendFileSync(
      path.join(dataDir, "postgresql.conf"),
      "\nhot_standby = on\nhot_standby_feedback = on\nwal_receiver_status_interval = 1s\n",
    );
    const port = opts.port ?? (await freePort());
    const child = startServer(dataDir, root, port, opts.log);
    await waitReady(root, port, child);
    return cluster(
      dataDir,
      root,
      port,
      child,
      { database: primary.database, user: primary.user, password: primary.password },
      opts.log,
    );
  } catch (e) {
    fs.rmSync(root, { recursive: true, force: true });
    throw e;
  }
}
