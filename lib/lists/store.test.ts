// The list service's store, its one-click links and the policy service's reads on SQLite (a temp file);
// store-pg.test.ts runs the same checks (e2e/support/list-store-checks.ts) on PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { runListStoreChecks, runSpamPolicyChecks } from "@/e2e/support/list-store-checks";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-list-store-"));
  delete process.env.DATABASE_URL;
  process.env.DATABASE_PATH = path.join(dir, "mail.db");
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("SQLite", () => {
  it("the list store: lists, members, bounces, tokens, held posts and one-click links", async () => {
    await runListStoreChecks();
  });
  it("the spam policy's reads: lists and switches of the account and its domain", async () => {
    await runSpamPolicyChecks();
  });
});
