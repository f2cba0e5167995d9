// Seeds the panel tests' database with the CLI's `demo` command. Refuses any path that is not a file in a fresh
// temporary folder made by playwright.config.ts, so a mistaken DATABASE_PATH can never touch real data.
import Database from "better-sqlite3";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export default function globalSetup() {
  const db = process.env.PANEL_E2E_DB;
  if (!db) throw new Error("PANEL_E2E_DB is not set (playwright.config.ts sets it)");
  const tmp = fs.realpathSync(os.tmpdir());
  const dir = fs.realpathSync(path.dirname(db));
  if (path.dirname(dir) !== tmp || !path.basename(dir).startsWith("mailadmin-panel-e2e-") || path.basename(db) !== "mail.db") {
    throw new Error(`Refusing to seed ${db}: not a throwaway file under ${tmp}/mailadmin-panel-e2e-*`);
  }
  // The server (started first) creates and migrates the file; anything already in it means it is not ours.
  if (fs.existsSync(db)) {
    const conn = new Database(db, { readonly: true });
    const domains = conn.prepare("SELECT count(*) FROM domains").pluck().get() as number;
    conn.close();
    if (domains > 0) throw new Error(`Refusing to seed ${db}: it already holds data`);
  }
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "demo"], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: db },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return () => fs.rmSync(path.dirname(db), { recursive: true, force: true });
}
