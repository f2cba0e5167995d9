// The sandbox on PostgreSQL whose database owner has no CREATEROLE: the mail role must exist already with
// MAIL_DB_PASSWORD. When it does not log in, the advice depends on pg_roles: create the role only when there is none.
// The pipe that creates it also sets the password of a role that exists, and every mail host's maps, which hold the
// old password, stop resolving (docs/postgresql.md, "The sandbox on PostgreSQL").
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mailReaderSql } from "@/db/pg/mail-reader";
import { openPostgres } from "@/db/pg/client";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { prepareMailReader } from "./database";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

let cluster: PgCluster;

/** Whether mail_reader logs in with `password`. */
async function logsIn(password: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: cluster.urlFor({ user: "mail_reader", password }) });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const hasRole = () => cluster.psql("SELECT count(*) FROM pg_roles WHERE rolname = 'mail_reader'").trim() === "1";

beforeAll(async () => {
  // The owner startPgCluster makes has no CREATEROLE, as docs/postgresql.md creates it (createuser --pwprompt).
  cluster = await startPgCluster({ port: process.env.PG_PORT ? Number(process.env.PG_PORT) : undefined });
  // Migrated first: the mail views the role is granted.
  await (await openPostgres(cluster.url)).$client.end();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe("the sandbox's mail role when DATABASE_URL's role may not create roles", () => {
  it("with no such role, says to create it as postgres", async () => {
    expect(hasRole()).toBe(false);
    await expect(prepareMailReader({ url: cluster.url, readerPassword: "sandbox-new" })).rejects.toThrow(
      "the mail role mail_reader does not exist, and DATABASE_URL's role may not create it (no CREATEROLE): create " +
        "it as postgres with `MAIL_DB_PASSWORD=... mailserver db-role --print | runuser -u postgres -- psql -d " +
        "mailadmin` (docs/postgresql.md)",
    );
    expect(hasRole()).toBe(false);
  });

  it("with the role there and another password, says to use the mail hosts' password, not to create it", async () => {
    // As docs/postgresql.md sets it up: the pipe into psql as postgres, with the password the mail hosts' maps hold.
    cluster.psql(mailReaderSql("mail_reader", "mail-hosts-password", cluster.database));
    let message = "";
    await prepareMailReader({ url: cluster.url, readerPassword: "wrong" }).catch((err: Error) => {
      message = err.message;
    });
    // Before, it said "create it as postgres with `MAIL_DB_PASSWORD=... mailserver db-role --print | ...`", which
    // resets the role's password.
    expect(message).toBe(
      "the mail role mail_reader exists and does not log in with MAIL_DB_PASSWORD (a random one when unset): " +
        'password authentication failed for user "mail_reader"; set MAIL_DB_PASSWORD to the password the mail ' +
        "hosts already use (their maps hold it). DATABASE_URL's role may not change it (no CREATEROLE), and a new " +
        "one set as postgres would stop every mail host's maps from resolving (docs/postgresql.md)",
    );
    expect(message).not.toMatch(/create it|db-role --print/);
    // Its password is still the mail hosts' one, and with it the sandbox starts.
    expect(await logsIn("mail-hosts-password")).toBe(true);
    await prepareMailReader({ url: cluster.url, readerPassword: "mail-hosts-password" });
  });

  it("with the role's password but a view not granted, says to grant as postgres with the password left as it is", async () => {
    cluster.psql("REVOKE SELECT ON mail_mailboxes FROM mail_reader");
    await expect(prepareMailReader({ url: cluster.url, readerPassword: "mail-hosts-password" })).rejects.toThrow(
      "the mail role mail_reader cannot read the mail views (permission denied for view mail_mailboxes): grant " +
        "them as postgres, its password unchanged, with MAIL_DB_PASSWORD unset: `mailserver db-role --print | " +
        "runuser -u postgres -- psql -d mailadmin` (docs/postgresql.md)",
    );
    // What that pipe runs (--print without a password: grants only) lets it start, the password kept.
    cluster.psql(mailReaderSql("mail_reader", undefined, cluster.database));
    await prepareMailReader({ url: cluster.url, readerPassword: "mail-hosts-password" });
    expect(await logsIn("mail-hosts-password")).toBe(true);
  });
});
