// The stamp moves on every change that could make a remembered value wrong: this connection's writes, another
// connection's commits (the CLI, the mail server), and nothing read inside a transaction is kept.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { dbGeneration, UntilChangedCache } from "./db-generation";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
let other: Db;

const catchall = (conn: Db) =>
  conn.$client.prepare("SELECT catchall_address FROM domains WHERE name = 'a.example'").pluck().get() as string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "db-generation-"));
  db = openDatabase(path.join(dir, "t.db"));
  other = openDatabase(path.join(dir, "t.db"));
  db.$client.prepare("INSERT INTO domains (name, catchall_address) VALUES ('a.example', 'one')").run();
});

afterAll(() => {
  db.$client.close();
  other.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("dbGeneration", () => {
  it("stays while nothing is written", () => {
    const first = dbGeneration(db);
    catchall(db);
    expect(dbGeneration(db)).toBe(first);
  });

  it("moves on this connection's write, at once", () => {
    const before = dbGeneration(db);
    db.$client.prepare("UPDATE domains SET catchall_address = 'two' WHERE name = 'a.example'").run();
    expect(dbGeneration(db)).not.toBe(before);
  });

  it("moves on another connection's commit, at once", () => {
    const before = dbGeneration(db);
    other.$client.prepare("UPDATE domains SET catchall_address = 'three' WHERE name = 'a.example'").run();
    expect(dbGeneration(db)).not.toBe(before);
  });

  it("is null inside a transaction", () => {
    db.$client.transaction(() => expect(dbGeneration(db)).toBeNull())();
  });
});

describe("UntilChangedCache", () => {
  const cache = new UntilChangedCache<string>(10);
  const cached = () => cache.get(db, "a.example", () => Promise.resolve(catchall(db)));

  it("reads once while the database is unchanged", async () => {
    const read = vi.fn(() => Promise.resolve(catchall(db)));
    await cache.get(db, "a.example", read);
    await cache.get(db, "a.example", read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("reads again after another connection's commit", async () => {
    expect(await cached()).toBe(catchall(db));
    other.$client.prepare("UPDATE domains SET catchall_address = 'four' WHERE name = 'a.example'").run();
    expect(await cached()).toBe("four");
  });

  it("keeps nothing read inside a transaction that is rolled back", async () => {
    expect(await cached()).toBe("four");
    let inside: Promise<string | undefined> | undefined;
    try {
      db.$client.transaction(() => {
        db.$client.prepare("UPDATE domains SET catchall_address = 'rolled back' WHERE name = 'a.example'").run();
        // Read (synchronously, as SQLite reads) inside the transaction; awaited after it.
        inside = cached();
        throw new Error("roll back");
      })();
    } catch {
      // expected
    }
    expect(await inside).toBe("rolled back");
    expect(await cached()).toBe("four");
  });

  it("does not remember a missing value", async () => {
    const read = vi.fn(() => Promise.resolve(undefined));
    await cache.get(db, "nowhere.example", read);
    await cache.get(db, "nowhere.example", read);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
