// The write races of issue 34 on SQLite: concurrent async writes of one process go through the write connection's
// queue (db/sqlite/dialect.ts), so the limit and the shared namespace hold. races-pg.test.ts runs them on PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { runRaces } from "@/e2e/support/races";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-races-"));
  delete process.env.DATABASE_URL;
  process.env.DATABASE_PATH = path.join(dir, "mail.db");
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite", () => {
  it("20 concurrent creates against a limit of 10 create exactly 10; one name as account and alias at once goes to one", async () => {
    await runRaces();
  });
});
