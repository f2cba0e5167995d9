// `mailserver db-role`: with a password it creates the mail role or sets its password; without one it only grants,
// so running it after an upgrade leaves the password every mail host's configuration holds as it was.
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type PgDb } from "@/db/pg/client";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";

let cluster: PgCluster;
let db: PgDb;

/** The operator's CLI in its own process, as `postgres`'s pipe in docs/postgresql.md runs it. */
function dbRole(args: string[], password?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: cluster.url };
  delete env.MAIL_DB_PASSWORD;
  if (password !== undefined) env.MAIL_DB_PASSWORD = password;
  const r = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "mailserver", "db-role", ...args],
    { encoding: "utf8", env },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Whether the mail role logs in with `password` (and then reads a view). */
async function logsIn(password: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: cluster.urlFor({ user: "mail_reader", password }) });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    await client.query("SELECT count(*) FROM mail_domains");
    return true;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  cluster = await startPgCluster();
  db = await openPostgres(cluster.url);
}, 120_000);

afterAll(async () => {
  await db?.$client.end();
  await cluster?.stop();
});

describe("mailserver db-role", () => {
  it("without a password, refuses to create the role and says what it needs", () => {
    const printed = dbRole(["--print"]);
    expect(printed.status).toBe(0);
    expect(printed.stdout).not.toMatch(/LOGIN PASSWORD/);
    expect(() => cluster.psql(printed.stdout, cluster.database)).toThrow(
      /role mail_reader does not exist: give its password \(MAIL_DB_PASSWORD\) to create it/,
    );
  });

  it("creates the role with a password, grants again without one, and changes the password only when given one", async () => {
    cluster.psql(dbRole(["--print"], "first-secret").stdout, cluster.database);
    expect(await logsIn("first-secret")).toBe(true);

    // After an upgrade: the grants again, the password as it was.
    const again = dbRole(["--print"]);
    expect(again.stdout).toContain("GRANT SELECT ON mail_domains");
    cluster.psql(again.stdout, cluster.database);
    expect(await logsIn("first-secret")).toBe(true);

    cluster.psql(dbRole(["--print"], "second-secret").stdout, cluster.database);
    expect(await logsIn("second-secret")).toBe(true);
    expect(await logsIn("first-secret")).toBe(false);
  });
});
