// Which engine the API tests run on: TEST_DATABASE=postgres runs them against a private PostgreSQL cluster that
// e2e/api/global-setup.ts starts (TEST_PG_URL names its owner's database); otherwise each server has its SQLite
// file. `databaseEnv` gives a server or CLI process its own database on either engine.
import pg from "pg";

export const onPostgres = () => process.env.TEST_DATABASE === "postgres";

/** The first port of the API tests' servers; each engine has its own range, so both suites can run at once. */
export const apiTestPort = () => Number(process.env.API_TEST_PORT ?? (onPostgres() ? 3250 : 3200));

/** The environment that points a process at database `name`: the SQLite file `file`, or a database on the cluster. */
export async function databaseEnv(name: string, file: string): Promise<Record<string, string>> {
  if (!onPostgres()) return { DATABASE_PATH: file };
  const base = process.env.TEST_PG_URL;
  if (!base) throw new Error("TEST_DATABASE=postgres without TEST_PG_URL (set by e2e/api/global-setup.ts)");
  const database = `t_${name.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.pathname = `/${database}`;
  return { DATABASE_PATH: file, DATABASE_URL: url.toString() };
}
