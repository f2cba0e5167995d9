// Vitest setup file of the `mail-pg` project (`npm run test:mail:pg`, TEST_DATABASE=postgres): before a mail test
// file imports anything, a private PostgreSQL cluster (e2e/support/pg-cluster.ts) and DATABASE_URL naming it, so
// db/schema.ts picks the PostgreSQL tables and every service, the CLI's commands and the sandbox use it. The
// cluster stops after the file's last hook (vitest runs after-hooks in reverse: this one last).
import { afterAll } from "vitest";
import { startPgCluster } from "@/e2e/support/pg-cluster";

// replicationUser: lib/mailserver/replica-api.test.ts streams a replica from it (a pg_hba line and a role).
const cluster = await startPgCluster({ replicationUser: "replicator" });
process.env.DATABASE_URL = cluster.url;
(globalThis as { __mailTestPg?: typeof cluster }).__mailTestPg = cluster;

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
  await cluster.stop();
  delete process.env.DATABASE_URL;
});
