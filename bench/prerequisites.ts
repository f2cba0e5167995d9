// What `npm run bench` needs besides node_modules, checked before it seeds 100,000 accounts (rather than
// crashing with `spawn wrk ENOENT` after seeding). One line says what to install.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PG_BIN } from "@/e2e/support/pg-cluster";

interface Tool {
  name: string;
  /** Present when this answers (exit status 0 or 1: wrk prints its usage and exits 1 without a URL). */
  present: () => boolean;
  install: string;
}

const runs = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { stdio: "ignore" });
  return !r.error && (r.status === 0 || r.status === 1);
};

/** What the run needs besides wrk and Chromium: PostgreSQL's server programs when it measures PostgreSQL. */
export interface Needs {
  postgres?: boolean;
}

export function missingPrerequisites(chromium: string, needs: Needs = {}): Tool[] {
  const tools: Tool[] = [
    { name: "wrk", present: () => runs("wrk", ["--version"]), install: "wrk" },
    { name: `Chromium (${chromium})`, present: () => fs.existsSync(chromium), install: "chromium" },
  ];
  if (needs.postgres) {
    // The bench's private cluster (e2e/support/pg-cluster.ts): initdb, postgres, pg_isready and psql from PG_BIN.
    tools.push({
      name: `PostgreSQL 15 (${PG_BIN})`,
      present: () => ["initdb", "postgres", "pg_isready", "psql"].every((b) => fs.existsSync(path.join(PG_BIN, b))),
      install: "postgresql-15",
    });
  }
  return tools.filter((t) => !t.present());
}

/** Exits with one line naming the Debian packages to install when something is missing. */
export function checkPrerequisites(chromium: string, needs: Needs = {}): void {
  const missing = missingPrerequisites(chromium, needs);
  if (missing.length === 0) return;
  console.error(
    `npm run bench: missing ${missing.map((m) => m.name).join(", ")}; install with: sudo apt-get install -y ${missing.map((m) => m.install).join(" ")}${missing.some((m) => m.install === "chromium") ? " (or set CHROMIUM_PATH)" : ""}${missing.some((m) => m.install === "postgresql-15") ? " (or set PG_BIN, or measure SQLite alone: --engines sqlite)" : ""}, then run it again.`,
  );
  process.exit(1);
}
