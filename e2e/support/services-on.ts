// For a vitest file that runs the services themselves on one engine: a fresh database before the file's tests (a
// SQLite file in a temp folder, or a private PostgreSQL cluster from pg-cluster.ts), named in the environment the
// services read when first imported (db/schema.ts picks the engine's tables then); after them the connection closed
// and the database removed. The file still mocks "server-only" itself (vi.mock is hoisted per file).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startPgCluster, type PgCluster } from "./pg-cluster";

async function closeServices() {
  const { closeDb } = await import("@/db/client");
  await closeDb();
}

export function servicesOnTempSqlite(): void {
  let dir: string | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-services-"));
    delete process.env.DATABASE_URL;
    process.env.DATABASE_PATH = path.join(dir, "mail.db");
  });
  afterAll(async () => {
    await closeServices();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
}

export function servicesOnPrivatePgCluster(): void {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
    process.env.DATABASE_URL = cluster.url;
  });
  afterAll(async () => {
    await closeServices();
    delete process.env.DATABASE_URL;
    await cluster?.stop();
  });
}
