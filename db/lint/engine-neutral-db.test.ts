import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
// A real file in a service folder, so that the project's own config (files, ignores, type information) applies.
const folder = path.join(root, "lib/server");
const file = path.join(folder, `engine-neutral-db-fixture-${process.pid}.ts`);
// The folder's times put back after the fixture goes: a newer folder made the bench (bench/run-config.ts,
// buildIfStale) rebuild the production build in CI, which this test had not changed.
const { atime, mtime } = fs.statSync(folder);

afterAll(() => {
  fs.rmSync(file, { force: true });
  fs.utimesSync(folder, atime, mtime);
});

async function violations(code: string): Promise<string[]> {
  fs.writeFileSync(file, code);
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return result!.messages.filter((m) => m.ruleId === "local/engine-neutral-db").map((m) => `${m.line}:${m.column}`);
}

describe("lint rule engine-neutral-db", () => {
  it("rejects the SQLite-only calls in a service and keeps the shared ones", { timeout: 120_000 }, async () => {
    const found = await violations(`import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { dialectOf } from "@/db/dialect";
import { customers, domains } from "@/db/schema";

export async function service(db: Db, params: URLSearchParams) {
  const one = db.select().from(domains).where(eq(domains.id, 1)).get();
  const many = db.select().from(domains).all();
  db.delete(domains).where(eq(domains.id, 1)).run();
  const raw = db.select().from(domains).values();
  const driver = db.$client;
  const shared = await db.select().from(domains).where(eq(domains.id, 1));
  await db.insert(customers).values({ name: "Example" }).returning();
  const viaDialect = await dialectOf(db).all(db, db.select().from(domains).getSQL());
  const map = new Map([["a", 1]]);
  return [one, many, raw, driver, shared, viaDialect, [...map.values()], params.get("q")];
}
`);
    expect(found).toEqual(["7:66", "8:42", "9:47", "10:41", "11:21"]);
  });
});
