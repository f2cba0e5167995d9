// Seeds the panel tests' database with the CLI's `demo` command. Refuses any path that is not a file in a fresh
// temporary folder made by playwright.config.ts, so a mistaken DATABASE_PATH can never touch real data.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { EXTRA_DOMAINS, SEEDED_ACCOUNTS } from "./fixtures";

export default function globalSetup() {
  const db = process.env.PANEL_E2E_DB;
  if (!db) throw new Error("PANEL_E2E_DB is not set (playwright.config.ts sets it)");
  const tmp = fs.realpathSync(os.tmpdir());
  const dir = fs.realpathSync(path.dirname(db));
  if (path.dirname(dir) !== tmp || !path.basename(dir).startsWith("mailadmin-panel-e2e-") || path.basename(db) !== "mail.db") {
    throw new Error(`Refusing to seed ${db}: not a throwaway file under ${tmp}/mailadmin-panel-e2e-*`);
  }
  if (fs.existsSync(db)) throw new Error(`Refusing to seed ${db}: it already exists`);
  const root = path.resolve(import.meta.dirname, "../..");
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_PATH: db },
      stdio: ["ignore", "ignore", "inherit"],
    });
  cli("demo");
  // Two more domains for the table tests (tables.spec.ts): one to import into, one with SEEDED_ACCOUNTS.count
  // accounts for bulk work across pages.
  for (const d of Object.values(EXTRA_DOMAINS)) {
    cli("domain", "add", d.domain, "--postmaster-password", d.password, "--account-limit", "2000", "--capacity-limit", "1000000");
  }
  seedAccounts(db, EXTRA_DOMAINS.bulk.domain);
  return () => fs.rmSync(path.dirname(db), { recursive: true, force: true });
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
        insert.run(id, name, `${name}@${domain}`, description, `${name}\u0001${description}`.toLowerCase(), 100, hash, today);
      }
    })();
  } finally {
    sqlite.close();
  }
}
