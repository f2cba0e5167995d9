// `account import` on SQLite (e2e/support/account-import.ts; account-import-pg.test.ts runs it on PostgreSQL).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it, vi } from "vitest";
import { servicesOnTempSqlite } from "@/e2e/support/services-on";
import { runAccountImport, runStreamingImport } from "@/e2e/support/account-import";

vi.mock("server-only", () => ({}));

servicesOnTempSqlite();

describe("account import on SQLite", () => {
  it("keeps the old hashes for mail, names each refused line, applies the limits; the first panel sign-in makes the API hash", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-account-import-"));
    try {
      await runAccountImport(path.join(dir, "accounts.jsonl"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes and prints the first batch before the rest of the file is there", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-account-import-"));
    try {
      await runStreamingImport(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
