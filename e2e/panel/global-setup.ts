// Seeds the panel tests' database with the CLI's `demo` command. Refuses any path that is not a file in a fresh
// temporary folder made by playwright.config.ts, so a mistaken DATABASE_PATH can never touch real data.
// TEST_DATABASE=postgres: the database is a fresh private PostgreSQL cluster (e2e/support/pg-cluster.ts, PG_PORT or
// a free port) instead; the setup seeds it, then starts the server on it (no webServer then) and stops both at the end.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { startPgCluster, type PgCluster } from "../support/pg-cluster";
import { sandboxCliArgs } from "../support/sandbox-cli";
import { assertPortFree } from "../support/port-free";
import { onPostgres } from "../support/test-database";
import { EXTRA_DOMAINS, SEEDED_ACCOUNTS } from "./fixtures";
import {
  PANEL_BASE_URL,
  PANEL_DNS_PORT,
  PANEL_PORT,
  PANEL_MAIL_HOSTS,
  SERVER_SCRIPT,
  panelServerEnv,
} from "./server-env";

const ROOT = path.resolve(import.meta.dirname, "../..");

export default async function globalSetup() {
  const db = process.env.PANEL_E2E_DB;
  if (!db) throw new Error("PANEL_E2E_DB is not set (playwright.config.ts sets it)");
  const tmp = fs.realpathSync(os.tmpdir());
  const dir = fs.realpathSync(path.dirname(db));
  if (
    path.dirname(dir) !== tmp ||
    !path.basename(dir).startsWith("mailadmin-panel-e2e-") ||
    path.basename(db) !== "mail.db"
  ) {
    throw new Error(`Refusing to seed ${db}: not a throwaway file under ${tmp}/mailadmin-panel-e2e-*`);
  }
  if (onPostgres()) return postgresSetup(dir);
  // The server (started first) creates and migrates the file; anything already in it means it is not ours.
  if (fs.existsSync(db)) {
    const conn = new Database(db, { readonly: true });
    const domains = conn.prepare("SELECT count(*) FROM domains").pluck().get() as number;
    conn.close();
    if (domains > 0) throw new Error(`Refusing to seed ${db}: it already holds data`);
  }
  seedWithCli({ DATABASE_PATH: db });
  seedAccounts(db, EXTRA_DOMAINS.bulk.domain);
  const dns = await startSandboxDns(dir, { DATABASE_PATH: db });
  return async () => {
    await stopServer(dns);
    fs.rmSync(path.dirname(db), { recursive: true, force: true });
  };
}

/**
 * The sandbox's DNS server alone (`mailserver sandbox --only dns --publish-dns`) on PANEL_DNS_PORT, serving the
 * records the seeded domains need, as DNS_RESOLVER of the server. The workers find its records file in
 * PANEL_E2E_DNS_RECORDS (domain-dns.spec.ts removes and changes records there).
 */
async function startSandboxDns(dir: string, dbEnv: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    sandboxCliArgs(path.join(dir, "sandbox"), "--only", "dns", "--publish-dns", "--dns-port", String(PANEL_DNS_PORT)),
    { cwd: ROOT, env: { ...process.env, ...dbEnv, ...PANEL_MAIL_HOSTS }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`the sandbox's DNS server exited (${code}): ${stderr}`)));
  });
  process.env.PANEL_E2E_DNS_RECORDS = (JSON.parse(line) as { dns_records: string }).dns_records;
  return child;
}

/** The CLI's `demo`, and two more domains for the table tests (tables.spec.ts): one to import into, one with
 * SEEDED_ACCOUNTS.count accounts for bulk work across pages. */
function seedWithCli(dbEnv: Record<string, string>) {
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...dbEnv },
      stdio: ["ignore", "ignore", "inherit"],
    });
  cli("demo");
  for (const d of Object.values(EXTRA_DOMAINS)) {
    cli(
      "domain",
      "add",
      d.domain,
      "--postmaster-password",
      d.password,
      "--account-limit",
      "2000",
      "--capacity-limit",
      "1000000",
    );
  }
}

async function postgresSetup(dir: string) {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npm run build\` first.`);
  }
  let cluster: PgCluster | undefined;
  let server: ChildProcess | undefined;
  let dns: ChildProcess | undefined;
  const teardown = async () => {
    await stopServer(server);
    await stopServer(dns);
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
    // The workers inherit it: the tests' CLI runs and e2e/panel/test-db.ts reach the same database.
    process.env.DATABASE_URL = cluster.url;
    seedWithCli({ DATABASE_URL: cluster.url });
    await seedAccountsPg(cluster.url, EXTRA_DOMAINS.bulk.domain);
    dns = await startSandboxDns(dir, { DATABASE_URL: cluster.url });
    server = await startServer(cluster.url, path.join(dir, "server.log"));
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}

/** The server as the webServer would run it, on DATABASE_URL; resolves once /login answers. */
async function startServer(url: string, log: string): Promise<ChildProcess> {
  await assertPortFree(PANEL_PORT, "set PANEL_E2E_PORT to another port");
  const out = fs.openSync(log, "w");
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, ...panelServerEnv(), DATABASE_URL: url },
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the panel server exited: ${fs.readFileSync(log, "utf8")}`);
    try {
      if ((await fetch(`${PANEL_BASE_URL}/login`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopServer(child);
      throw new Error(`the panel server did not answer on ${PANEL_BASE_URL}: ${fs.readFileSync(log, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopServer(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** seedAccounts on PostgreSQL: one INSERT ... SELECT; the counters are kept by the PL/pgSQL triggers. */
async function seedAccountsPg(url: string, domain: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const {
      rows: [postmaster],
    } = await client.query<{ id: number; hash: string }>(
      "SELECT d.id AS id, a.password_hash AS hash FROM domains d JOIN accounts a ON a.domain_id = d.id AND a.name = 'postmaster' WHERE d.name = $1",
      [domain],
    );
    if (!postmaster) throw new Error(`no postmaster of ${domain} to seed accounts with`);
    const description = "Konto z importu";
    await client.query(
      `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash, creation_date)
       SELECT $1, n, n || '@' || $2, $3, lower(n || chr(1) || $3), 100, $4, $5
       FROM (SELECT $6 || lpad(i::text, 4, '0') AS n FROM generate_series(1, $7::int) AS i) AS s ORDER BY n`,
      [
        postmaster.id,
        domain,
        description,
        postmaster.hash,
        new Date().toISOString().slice(0, 10),
        SEEDED_ACCOUNTS.prefix,
        SEEDED_ACCOUNTS.count,
      ],
    );
  } finally {
    await client.end();
  }
}

/**
 * Rows straight into SQLite, as bench/seed.ts does: creating 1,500 accounts through the API would hash 1,500
 * passwords (scrypt) and take minutes. They share the postmaster's hash; nobody logs in as them. The search index
 * and the domain's counters are kept by the database's triggers.
 */
function seedAccounts(file: string, domain: string) {
  const sqlite = new Database(file);
  try {
    const { id, hash } = sqlite
      .prepare(
        "SELECT d.id AS id, a.password_hash AS hash FROM domains d JOIN accounts a ON a.domain_id = d.id AND a.name = 'postmaster' WHERE d.name = ?",
      )
      .get(domain) as { id: number; hash: string };
    const insert = sqlite.prepare(
      `INSERT INTO accounts (domain_id, name, email, description, search_key, capacity, password_hash, creation_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const today = new Date().toISOString().slice(0, 10);
    sqlite.transaction(() => {
      for (let i = 1; i <= SEEDED_ACCOUNTS.count; i++) {
        const name = `${SEEDED_ACCOUNTS.prefix}${String(i).padStart(4, "0")}`;
        const description = "Konto z importu";
        insert.run(
          id,
          name,
          `${name}@${domain}`,
          description,
          `${name}\u0001${description}`.toLowerCase(),
          100,
          hash,
          today,
        );
      }
    })();
  } finally {
    sqlite.close();
  }
}
