// TLS to the database, read the same way by every client: the service's node-postgres pool, pg_dump, and Postfix's
// pgsql maps (libpq) follow DATABASE_URL's sslmode and sslrootcert as libpq defines them, on a private cluster that
// serves TLS with a self-signed certificate and refuses the mail role without it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openPostgres } from "@/db/pg/client";
import { mailReaderSql } from "@/db/pg/mail-reader";
import { domains } from "@/db/pg/schema";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { backupPostgres } from "@/lib/cli/pg-backup";
import { writeMailServerConfig } from "./config";
import { pgsqlMapOptionsFromUrl } from "./config-database";

vi.mock("server-only", () => ({}));
vi.setConfig({ testTimeout: 60_000 });

let cluster: PgCluster;
let dir: string;
let cert: string;
const withTls = (query: string) => `${cluster.url}?${query}`;

/** What the connection of a pool opened on `url` reports about itself. */
async function sslOf(url: string): Promise<boolean> {
  const db = await openPostgres(url, { migrate: false });
  try {
    return (await db.$client.query<{ ssl: boolean }>("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()"))
      .rows[0]!.ssl;
  } finally {
    await db.$client.end();
  }
}

describe("sslmode and sslrootcert, as libpq reads them, in every client", () => {
  beforeAll(async () => {
    cluster = await startPgCluster();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-pgtls-"));
    fs.chmodSync(dir, 0o755);
    cert = path.join(dir, "server.crt");
    const key = path.join(dir, "server.key");
    // Another name than the host's: verify-full against 127.0.0.1 must fail, verify-ca must pass.
    const r = spawnSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=db.example.org",
      ],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    spawnSync("chown", ["postgres", key, cert]);
    fs.chmodSync(key, 0o600);
    fs.chmodSync(cert, 0o644);
    cluster.psql(`ALTER SYSTEM SET ssl_cert_file = '${cert}'`);
    cluster.psql(`ALTER SYSTEM SET ssl_key_file = '${key}'`);
    cluster.psql("ALTER SYSTEM SET ssl = on");
    // The mail role only over TLS: a map that connects without it is refused.
    const hba = path.join(cluster.dataDir, "pg_hba.conf");
    fs.writeFileSync(hba, `hostnossl all mail_reader 127.0.0.1/32 reject\n${fs.readFileSync(hba, "utf8")}`);
    cluster.psql("SELECT pg_reload_conf()");
    const db = await openPostgres(cluster.url);
    await db.insert(domains).values({ name: "tls.test" });
    await db.$client.end();
    cluster.psql(mailReaderSql("mail_reader", "reader-secret", cluster.database));
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("node-postgres: require encrypts without verifying; verify-ca checks the root; verify-full the name too", async () => {
    expect(cluster.psql("SHOW ssl").trim()).toBe("on");
    expect(await sslOf(withTls("sslmode=require"))).toBe(true);
    expect(await sslOf(withTls(`sslmode=verify-ca&sslrootcert=${cert}`))).toBe(true);
    await expect(sslOf(withTls(`sslmode=verify-full&sslrootcert=${cert}`))).rejects.toThrow(
      /db\.example\.org|altnames|Hostname/i,
    );
    expect(await sslOf(withTls("sslmode=disable"))).toBe(false);
    await expect(sslOf(withTls("sslmode=no-verify"))).rejects.toThrow(/use sslmode=require/);
  });

  it("pg_dump with the same URL: require and verify-ca work, no-verify is refused before it runs", () => {
    expect(backupPostgres(withTls("sslmode=require"), path.join(dir, "a.dump")).bytes).toBeGreaterThan(1000);
    expect(
      backupPostgres(withTls(`sslmode=verify-ca&sslrootcert=${cert}`), path.join(dir, "b.dump")).bytes,
    ).toBeGreaterThan(1000);
    expect(() => backupPostgres(withTls("sslmode=no-verify"), path.join(dir, "c.dump"))).toThrow(/use sslmode=require/);
  });

  it("Postfix's pgsql map and Dovecot's connect string carry DATABASE_URL's TLS settings", () => {
    fs.mkdirSync(path.join(dir, "postfix-etc"));
    fs.writeFileSync(path.join(dir, "postfix-etc", "main.cf"), "compatibility_level = 3.6\n");
    const lookup = (url: string, out: string) => {
      writeMailServerConfig({
        outDir: path.join(dir, out),
        databasePath: "/unused",
        pgsql: pgsqlMapOptionsFromUrl(url, { password: "reader-secret" }),
        maildirRoot: path.join(dir, "vmail"),
        mailUser: "nobody",
        mailGroup: "nogroup",
        dbGroup: "nogroup",
        lmtp: "lmtp:inet:127.0.0.1:24",
      });
      return spawnSync(
        "postmap",
        [
          "-c",
          path.join(dir, "postfix-etc"),
          "-q",
          "tls.test",
          `pgsql:${path.join(dir, out, "postfix", "virtual-mailbox-domains.cf")}`,
        ],
        { encoding: "utf8" },
      );
    };
    // Without TLS the mail role is refused (pg_hba), so an answer proves Postfix's libpq used TLS.
    const plain = lookup(withTls("sslmode=disable"), "plain");
    expect(plain.stdout.trim()).toBe("");
    expect(plain.stderr).toMatch(/no encryption/);
    // Postfix names the host in its warning as the map writes it: the URI must not hold the mail role's password,
    // which libpq reads from the password file the URI names (0600, proxymap's user postfix its owner).
    expect(plain.stderr).toMatch(/connect to pgsql server postgresql:\/\/mail_reader@127\.0\.0\.1/);
    expect(plain.stderr).not.toContain("reader-secret");
    const pgpass = path.join(dir, "plain", "postfix", "pgpass");
    expect(fs.readFileSync(pgpass, "utf8")).toBe(`*:*:${cluster.database}:mail_reader:reader-secret\n`);
    expect(fs.statSync(pgpass).mode & 0o777).toBe(0o600);
    const map = fs.readFileSync(path.join(dir, "plain", "postfix", "virtual-mailbox-domains.cf"), "utf8");
    expect(map).toMatch(
      new RegExp(`^hosts = postgresql://mail_reader@\\S+&passfile=${encodeURIComponent(pgpass)}$`, "m"),
    );
    const tls = lookup(withTls(`sslmode=verify-ca&sslrootcert=${cert}`), "tls");
    expect(tls.stdout.trim(), tls.stderr).toBe("tls.test");
    const connect = fs.readFileSync(path.join(dir, "tls", "dovecot", "dovecot-sql.conf.ext"), "utf8");
    expect(connect).toContain(`sslmode='verify-ca' sslrootcert='${cert}'`);
    // Without TLS the maps name bare hosts, with user= and password=, and the password file goes.
    lookup(cluster.url, "tls");
    expect(fs.existsSync(path.join(dir, "tls", "postfix", "pgpass"))).toBe(false);
  });
});
