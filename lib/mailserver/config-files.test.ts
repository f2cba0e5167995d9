// The generated files on PostgreSQL: each file holding the mail role's password readable by its daemon's group only,
// no group a PostgreSQL-only host lacks, and Dovecot's connect string quoted so libpq reads any password.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPgCluster, type PgCluster } from "@/e2e/support/pg-cluster";
import { DEFAULT_CONFIG_OPTIONS, writeMailServerConfig, type MailServerConfigOptions } from "./config";
import { dovecotPgConnect, type PgsqlMapOptions } from "./config-database";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const PASSWORD = `it's a \\ "pass" word`;
let cluster: PgCluster;
let dir: string;

const pgsql = (port: number): PgsqlMapOptions => ({
  readHosts: [`127.0.0.1:${port}`],
  writeHost: `127.0.0.1:${port}`,
  dbname: "mailadmin",
  user: "mail reader",
  password: PASSWORD,
});
const options = (outDir: string, pg?: PgsqlMapOptions): MailServerConfigOptions => ({
  ...DEFAULT_CONFIG_OPTIONS,
  outDir,
  databasePath: path.join(outDir, "mail.db"),
  pgsql: pg,
});
const gid = (name: string) =>
  Number(
    fs
      .readFileSync("/etc/group", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`))!
      .split(":")[2],
  );

beforeAll(async () => {
  cluster = await startPgCluster();
  cluster.psql(`CREATE ROLE "mail reader" LOGIN PASSWORD '${PASSWORD.replace(/'/g, "''")}';`, "postgres");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-conffiles-"));
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("generated configuration on PostgreSQL", () => {
  it("Dovecot's connect string quotes every value, so libpq logs in with a password holding spaces and quotes", () => {
    const connect = dovecotPgConnect(pgsql(cluster.port), [`127.0.0.1:${cluster.port}`]);
    const r = spawnSync("/usr/lib/postgresql/15/bin/psql", ["-XAtc", "SELECT current_user", connect], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("mail reader");
  });

  it("files with the password are 0640 root:postfix or root:dovecot; the others 0644; no extra_groups on PostgreSQL", () => {
    const out = path.join(dir, "pg");
    writeMailServerConfig(options(out, pgsql(cluster.port)));
    const st = (rel: string) => fs.statSync(path.join(out, rel));
    const asRoot = process.getuid?.() === 0;
    for (const rel of ["postfix/virtual-mailbox-maps.cf", "postfix/virtual-alias-maps.cf"]) {
      expect(st(rel).mode & 0o777, rel).toBe(asRoot ? 0o640 : 0o600);
      if (asRoot) expect(st(rel).gid, rel).toBe(gid("postfix"));
    }
    for (const rel of ["dovecot/dovecot-sql.conf.ext", "dovecot/dovecot-dict-sql.conf.ext"]) {
      expect(st(rel).mode & 0o777, rel).toBe(asRoot ? 0o640 : 0o600);
      if (asRoot) expect(st(rel).gid, rel).toBe(gid("dovecot"));
    }
    expect(st("README.md").mode & 0o777).toBe(0o644);
    expect(st("dovecot/mailadmin.conf").mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(path.join(out, "dovecot/mailadmin.conf"), "utf8")).not.toContain("extra_groups");
    // No file holding the password is readable by other users.
    for (const rel of fs.readdirSync(out, { recursive: true }) as string[]) {
      const file = path.join(out, rel);
      if (fs.statSync(file).isFile() && fs.readFileSync(file, "utf8").includes(PASSWORD))
        expect(fs.statSync(file).mode & 0o004, rel).toBe(0);
    }
  });

  it("asks the primary what the read hosts do not know whenever one of them is another host", () => {
    const primaryFiles = (readHosts: string[]) => {
      const out = fs.mkdtempSync(path.join(dir, "fallback-"));
      writeMailServerConfig(options(out, { ...pgsql(cluster.port), readHosts, writeHost: "db1.example.org" }));
      const main = fs.readFileSync(path.join(out, "postfix/main.cf.snippet"), "utf8");
      const dovecot = fs.readFileSync(path.join(out, "dovecot/mailadmin.conf"), "utf8");
      return {
        postfix: fs.existsSync(path.join(out, "postfix/virtual-mailbox-maps-primary.cf")),
        listed: main.includes("virtual-mailbox-maps-primary.cf"),
        dovecot: dovecot.includes("dovecot-sql-primary.conf.ext"),
      };
    };
    const all = { postfix: true, listed: true, dovecot: true };
    expect(primaryFiles(["127.0.0.1"])).toEqual(all);
    // The primary as a second read host: Postfix picks one at random, so the replica may still be asked first.
    expect(primaryFiles(["127.0.0.1", "db1.example.org"])).toEqual(all);
    expect(primaryFiles(["db1.example.org"])).toEqual({ postfix: false, listed: false, dovecot: false });
  });

  it("a later run without a fallback removes the primary's files an earlier run wrote (failover, docs/postgresql.md)", () => {
    // Host B read its replica with the primary db1 as the fallback; after the failover its own database is the primary
    // and the same folder is written again with --read-hosts 127.0.0.1 --write-host db2. The old files named the lost
    // primary, held the mail role's password, and made `mailserver check` fail on a file nothing reads.
    const out = fs.mkdtempSync(path.join(dir, "failover-"));
    const stale = ["postfix/virtual-mailbox-maps-primary.cf", "dovecot/dovecot-sql-primary.conf.ext"];
    writeMailServerConfig(
      options(out, { ...pgsql(cluster.port), readHosts: ["127.0.0.1"], writeHost: "db1.example.org" }),
    );
    for (const rel of stale) expect(fs.existsSync(path.join(out, rel)), rel).toBe(true);
    writeMailServerConfig(options(out, { ...pgsql(cluster.port), readHosts: ["127.0.0.1"], writeHost: "127.0.0.1" }));
    for (const rel of stale) expect(fs.existsSync(path.join(out, rel)), rel).toBe(false);
    expect(fs.readFileSync(path.join(out, "postfix/main.cf.snippet"), "utf8")).not.toContain("-primary");
  });

  it("the SQLite configuration keeps the dict's extra group (it writes the database file)", () => {
    const out = path.join(dir, "sqlite");
    writeMailServerConfig(options(out));
    expect(fs.readFileSync(path.join(out, "dovecot/mailadmin.conf"), "utf8")).toContain("extra_groups = mailadmin");
  });
});

describe("DKIM for mail taken other than over SMTP", () => {
  it("sends sendmail's mail through Rspamd's signing worker, whose tasks run only the local signing rule", () => {
    const out = path.join(dir, "sign");
    writeMailServerConfig(options(out));
    const read = (rel: string) => fs.readFileSync(path.join(out, rel), "utf8");
    expect(read("postfix/main.cf.snippet")).toMatch(/^smtpd_milters = inet:127\.0\.0\.1:11332$/m);
    expect(read("postfix/main.cf.snippet")).toMatch(/^non_smtpd_milters = inet:127\.0\.0\.1:11339$/m);
    const worker = read("rspamd/rspamd.conf.local");
    expect(worker).toContain('bind_socket = "127.0.0.1:11339";');
    expect(worker).toMatch(/self_scan = yes;\s+settings_id = "mailadmin_local_sign";/);
    expect(read("rspamd/local.d/settings.conf")).toContain('symbols_enabled = ["MAILADMIN_LOCAL_SIGN"];');
    expect(read("rspamd/local.d/rspamd.lua")).toContain("allowed_ids = 'mailadmin_local_sign'");
  });
});

describe("the generated README", () => {
  it("describes the PostgreSQL configuration, not the SQLite one", () => {
    const out = path.join(dir, "readme");
    writeMailServerConfig(options(out, pgsql(cluster.port)));
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    expect(readme).toContain("proxy:pgsql:");
    expect(readme).toContain("postfix-pgsql");
    expect(readme).not.toMatch(/proxy:sqlite:|postfix-sqlite|mail\.db/);
  });

  it("asks each view's <view>_for(key) function on PostgreSQL (its plan kept per connection) and the view on SQLite", () => {
    /** Every lookup query the files hold: Postfix's maps and Dovecot's passdb/userdb. */
    const lookups = (out: string) =>
      ["postfix", "dovecot"].flatMap((sub) =>
        fs
          .readdirSync(path.join(out, sub))
          .filter((f) => /\.(cf|conf\.ext)$/.test(f))
          .flatMap((f) => [
            ...fs.readFileSync(path.join(out, sub, f), "utf8").matchAll(/^(password_|user_)?query = (.*)$/gm),
          ])
          .map((m) => m[2]!),
      );
    const pgOut = path.join(dir, "lookups-pg");
    const pg = { ...pgsql(cluster.port), readHosts: ["127.0.0.1:5433"] };
    writeMailServerConfig({ ...options(pgOut, pg), hostName: "imap2", srsDomain: "mx.example.org" });
    const onPg = lookups(pgOut);
    // Domains, mailboxes (and the primary's), aliases, two list maps, sender logins, mailbox transport, SRS (9); Dovecot's
    // passdb and userdb on the replica and the primary.
    expect(onPg.length).toBe(13);
    for (const q of onPg) expect(q).toMatch(/ FROM mail_[a-z_]+_for\('%[sud](@%d)?'\)/);
    for (const q of onPg) expect(q).not.toMatch(/ FROM mail_[a-z_]+ (WHERE|[a-z] )/);
    const sqliteOut = path.join(dir, "lookups-sqlite");
    writeMailServerConfig({ ...options(sqliteOut), srsDomain: "mx.example.org" });
    const onSqlite = lookups(sqliteOut);
    expect(onSqlite.length).toBeGreaterThan(8);
    for (const q of onSqlite) expect(q).not.toContain("_for(");
  });

  it("names every Postfix table it wrote, a mail host's mailbox-transport.cf and the replica's fallback included", () => {
    const out = path.join(dir, "readme-hosts");
    const pg = { ...pgsql(cluster.port), readHosts: ["127.0.0.1:5433"] };
    writeMailServerConfig({ ...options(out, pg), hostName: "imap2" });
    const readme = fs.readFileSync(path.join(out, "README.md"), "utf8");
    const tables = fs.readdirSync(path.join(out, "postfix")).filter((f) => f.endsWith(".cf"));
    expect(tables).toContain("mailbox-transport.cf");
    expect(tables).toContain("virtual-mailbox-maps-primary.cf");
    for (const table of tables) expect(readme).toContain(`postfix/${table}`);
    expect(readme).toMatch(/mailbox-transport\.cf \| .*mail hosts other than imap2/);
    // Another host's mailbox gets the database's usage (dict quota) except in doveadm: a move's `doveadm sync` makes
    // a real copy here, which the dict counted again on top of the owner's (docs/mail-hosts.md, "Moving a domain").
    const userQuery = /^user_query = .*$/m.exec(
      fs.readFileSync(path.join(out, "dovecot", "dovecot-sql.conf.ext"), "utf8"),
    )![0];
    expect(userQuery).toContain(
      "CASE WHEN h.host <> 'imap2' AND '%s' <> 'doveadm' THEN 'dict:User quota::proxy::mailadmin' END",
    );
    expect(readme).not.toContain("three .cf files");
    // Without SRS no postsrsd; with it, postsrsd must answer or nothing is delivered.
    expect(readme).not.toContain("postsrsd runs");
    const srs = path.join(dir, "readme-srs");
    writeMailServerConfig({ ...options(srs, pg), srsDomain: "mx.example.org" });
    expect(fs.readFileSync(path.join(srs, "README.md"), "utf8")).toMatch(
      /postsrsd runs \(package postsrsd, SRS_DOMAIN=mx\.example\.org[^]*127\.0\.0\.1:10001 and 127\.0\.0\.1:10002[^]*451 4\.3\.0/,
    );
  });
});

describe("the submission services' own rules", () => {
  it("discards DSN for every smtpd (the submission services set it back); the null sender is left to the From check", () => {
    const out = path.join(dir, "submission-rules");
    writeMailServerConfig(options(out));
    const main = fs.readFileSync(path.join(out, "postfix/main.cf.snippet"), "utf8");
    expect(main).toMatch(/^smtpd_discard_ehlo_keywords = silent-discard, dsn$/m);
    expect(main).toMatch(/^mua_sender_restrictions = reject_authenticated_sender_login_mismatch$/m);
    const lua = fs.readFileSync(path.join(out, "rspamd/local.d/rspamd.lua"), "utf8");
    expect(lua).toContain("if user ~= '' then\n            task:set_pre_result('soft reject'");
  });
});
