// `node --import tsx e2e/support/with-pg-cluster.ts <command...>`: runs a command with DATABASE_URL naming a fresh
// private PostgreSQL cluster (startPgCluster), then stops the cluster and removes it, whatever the command's
// outcome; exits with the command's status. For CI's PostgreSQL pass, for example
// `node --import tsx e2e/support/with-pg-cluster.ts npx vitest run --project api`, or the sandbox on PostgreSQL:
// `... with-pg-cluster.ts bash -c 'npm run --silent cli -- demo && npm run --silent cli -- mailserver sandbox --dir /tmp/mail'`.
import { spawn } from "node:child_process";
import { startPgCluster } from "./pg-cluster";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: with-pg-cluster.ts <command> [args...]");
  process.exit(2);
}
const cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
// A throwaway cluster: its owner may create roles, so that `mailserver sandbox --database postgres` run under it
// creates the mail role itself (on a real server the owner usually may not: docs/postgresql.md).
cluster.psql(`ALTER ROLE "${cluster.user}" CREATEROLE`);
console.error(`PostgreSQL cluster on 127.0.0.1:${cluster.port} (${cluster.dataDir})`);
const child = spawn(cmd, args, { stdio: "inherit", env: { ...process.env, DATABASE_URL: cluster.url } });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
const status = await new Promise<number>((resolve) => child.on("exit", (code, sig) => resolve(code ?? (sig ? 1 : 0))));
await cluster.stop();
process.exit(status);
