// The operator CLI's argument handling, for every command in the table: --help answers without touching the
// database, and an unknown option, a missing value or a bad number is refused with exit 2 and one line naming it.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { freePort } from "@/lib/mailserver/sandbox/processes";
import { operatorPath, parseCommandArgs, UsageError } from "./args";
import { COMMANDS, runCommand } from "./commands";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const noDb = () => {
  throw new Error("the database was opened");
};

/** Runs argv against the table without a database; the usage error's message, or the output. */
async function usage(argv: string[]): Promise<string> {
  try {
    await runCommand(noDb, argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`no usage error for ${argv.join(" ")}`);
}

describe("every command", () => {
  const groups = [...new Set(COMMANDS.map((c) => c.name.split(" ")[0]!))];

  it("the table has the commands of the contract and the operator's database and mail-server commands", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "domain add",
        "domain list",
        "domain show",
        "domain set-limits",
        "domain remove",
        "usage report",
        "demo",
        "db optimize",
        "db backup",
        "db restore",
        "mailserver config",
        "mailserver housekeeping",
        "mailserver check",
      ]),
    );
  });

  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    "%s --help: usage line, every option, an example",
    async (name, command) => {
      for (const flag of ["--help", "-h"]) {
        // Options before --help do not matter, even unknown ones are not needed: the help comes first.
        const help = await runCommand(noDb, [...name.split(" "), flag]);
        expect(help).toMatch(new RegExp(`^Usage: npm run --silent cli -- ${name}( |$)`, "m"));
        for (const option of Object.keys(command.options ?? {})) expect(help).toContain(`--${option}`);
        expect(help).toMatch(/\nExample:\n {2}(\S+=\S+ |\( set -a; \. \S+; )?npm run --silent cli -- /);
        expect(help).toContain(`cli -- ${name}`);
        // The docs keep passwords off command lines (`ps`, shell history): an example does too.
        expect(help).not.toMatch(/:\/\/[^\s/@]+:[^\s/@]+@/);
      }
    },
  );

  it("db backup --help names each engine's check of the copy", async () => {
    // It named only SQLite's PRAGMA integrity_check; on PostgreSQL the archive is read with pg_restore --list.
    const help = await runCommand(noDb, ["db", "backup", "--help"]);
    expect(help.replace(/\s+/g, " ")).toMatch(/SQLite: PRAGMA integrity_check; PostgreSQL: pg_restore --list/);
  });

  it.each(COMMANDS.map((c) => [c.name] as const))("%s refuses an unknown option, naming it", async (name) => {
    const message = await usage([...name.split(" "), "--no-such-option", "x"]);
    expect(message).toBe(`${name}: unknown option --no-such-option (see --help)`);
  });

  it.each(
    COMMANDS.flatMap((c) =>
      Object.entries(c.options ?? {})
        .filter(([, o]) => o.type === "string")
        .map(([o]) => [c.name, o] as const),
    ),
  )("%s --%s without its value is refused, naming it", async (name, option) => {
    expect(await usage([...name.split(" "), `--${option}`])).toBe(`${name}: --${option} needs a value (see --help)`);
  });

  it.each(
    COMMANDS.flatMap((c) =>
      Object.entries(c.options ?? {})
        .filter(([, o]) => o.min !== undefined)
        .map(([o]) => [c.name, o] as const),
    ),
  )("%s --%s refuses a value that is not a whole number", async (name, option) => {
    const command = COMMANDS.find((c) => c.name === name)!;
    const positionals = (command.args ?? []).filter((a) => a.startsWith("<")).map(() => "x@example.org");
    // The other required options, valid, so that only the bad number is wrong.
    const required = Object.entries(command.options ?? {})
      .filter(([o, spec]) => spec.required && o !== option)
      .flatMap(([o, spec]) => [`--${o}`, spec.min !== undefined ? "1" : "Valid-pass1"]);
    const { min, max } = command.options![option]!;
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    for (const bad of ["abc", "1.5", "1e3", "", "12abc", "-1"]) {
      expect(await usage([...name.split(" "), ...positionals, ...required, `--${option}=${bad}`])).toBe(
        `${name}: --${option} needs a whole number ${range}, not '${bad}'`,
      );
    }
    // Digits past the maximum (a limit column's, else the largest exact number) are said to be too large.
    const top = max ?? Number.MAX_SAFE_INTEGER;
    for (const big of [String(BigInt(top) + 2n), "99999999999999999999"]) {
      expect(await usage([...name.split(" "), ...positionals, ...required, `--${option}=${big}`])).toBe(
        `${name}: --${option} is too large: at most ${top}, not '${big}'`,
      );
    }
  });

  it.each(COMMANDS.filter((c) => c.args?.some((a) => a.startsWith("<"))).map((c) => [c.name, c.args![0]!] as const))(
    "%s without %s is refused",
    async (name, arg) => {
      expect(await usage(name.split(" "))).toMatch(new RegExp(`^${name}: missing ${arg} \\(usage: `));
    },
  );

  it.each(groups.filter((g) => COMMANDS.some((c) => c.name.startsWith(`${g} `))).map((g) => [g] as const))(
    "the group %s lists its commands, and refuses an unknown one",
    async (group) => {
      const help = await runCommand(noDb, [group, "--help"]);
      for (const c of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) expect(help).toContain(`  ${c.name} `);
      expect(await runCommand(noDb, [group])).toBe(help);
      expect(await usage([group, "nonsense"])).toBe(`unknown command '${group} nonsense' (see ${group} --help)`);
    },
  );

  // Every run of leading words that starts longer commands, "mailserver host" and "domain dkim" too.
  const prefixes = [
    ...new Set(
      COMMANDS.flatMap((c) =>
        c.name
          .split(" ")
          .slice(0, -1)
          .map((_, i, w) => w.slice(0, i + 1).join(" ")),
      ),
    ),
  ].filter((p) => !COMMANDS.some((c) => c.name === p));
  it.each(prefixes.map((p) => [p] as const))(
    "%s --help lists the commands under it, naming each next word once",
    async (prefix) => {
      const help = await runCommand(noDb, [...prefix.split(" "), "--help"]);
      const under = COMMANDS.filter((c) => c.name.startsWith(`${prefix} `));
      for (const c of under) expect(help).toContain(`  ${c.name} `);
      const next = [...new Set(under.map((c) => c.name.split(" ")[prefix.split(" ").length]))];
      expect(help.split("\n")[0]).toContain(`${prefix} <${next.join("|")}> ...`);
      expect(await usage([...prefix.split(" "), "nonsense"])).toBe(
        `unknown command '${prefix} nonsense' (see ${prefix} --help)`,
      );
    },
  );

  it("marks every option that names a file or folder, so that a relative one is taken from the operator's directory", () => {
    const unmarked = COMMANDS.flatMap((c) =>
      Object.entries(c.options ?? {})
        .filter(([, o]) => (o.value === "<file>" || o.value === "<dir>") && o.path !== "file")
        .map(([o]) => `${c.name} --${o}`),
    );
    expect(unmarked).toEqual([]);
  });

  it("operatorPath: INIT_CWD when npm set it, else the working directory; - stays standard input", () => {
    const saved = process.env.INIT_CWD;
    try {
      process.env.INIT_CWD = "/srv/operator";
      expect(operatorPath("limits.txt")).toBe("/srv/operator/limits.txt");
      expect(operatorPath("../x/limits.txt")).toBe("/srv/x/limits.txt");
      expect(operatorPath("/etc/mailadmin")).toBe("/etc/mailadmin");
      expect(operatorPath("-")).toBe("-");
      delete process.env.INIT_CWD;
      expect(operatorPath("limits.txt")).toBe(path.join(process.cwd(), "limits.txt"));
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });

  it("a program option is made absolute only when it is a path (a bare name is looked up in PATH)", () => {
    const housekeeping = COMMANDS.find((c) => c.name === "mailserver housekeeping")!;
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = "/srv/operator";
    try {
      const parsed = (doveadm: string) =>
        parseCommandArgs(housekeeping, ["--doveadm", doveadm, "--dovecot-config", "dovecot.conf"]);
      expect(parsed("doveadm")).toMatchObject({
        values: { doveadm: "doveadm", "dovecot-config": "/srv/operator/dovecot.conf" },
      });
      expect(parsed("bin/doveadm")).toMatchObject({ values: { doveadm: "/srv/operator/bin/doveadm" } });
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });

  it("the top level lists every command; an unknown command is refused", async () => {
    const help = await runCommand(noDb, ["--help"]);
    for (const c of COMMANDS) expect(help).toContain(`  ${c.name} `);
    expect(await runCommand(noDb, [])).toBe(help);
    expect(await usage(["frobnicate"])).toBe("unknown command 'frobnicate' (see --help)");
  });

  it("a flag given a value, an extra argument and a missing required option are refused", async () => {
    expect(await usage(["domain", "remove", "a.example", "--yes=no"])).toBe(
      "domain remove: --yes takes no value (see --help)",
    );
    expect(await usage(["domain", "show", "a.example", "b.example"])).toBe(
      "domain show: unexpected argument 'b.example' (see --help)",
    );
    // "$(cat /etc/mailname)" on a host without the file: SRS would go off without a word.
    expect(await usage(["mailserver", "config", "--out", "/nonexistent/conf", "--srs-domain", ""])).toBe(
      "mailserver config: --srs-domain is empty: give the SRS domain (this host's mail name), or none",
    );
    expect(await usage(["mailserver", "check", "--password", "x"])).toMatch(
      /^mailserver check: --account is required \(usage: /,
    );
    // The password may come from CHECK_PASSWORD (deploy.md reads it with read -s): both are named.
    const saved = process.env.CHECK_PASSWORD;
    delete process.env.CHECK_PASSWORD;
    try {
      expect(await usage(["mailserver", "check", "--account", "a@a.example"])).toBe(
        "mailserver check: --password or CHECK_PASSWORD is required (docs/deploy.md, step 6)",
      );
    } finally {
      if (saved !== undefined) process.env.CHECK_PASSWORD = saved;
    }
    expect(await usage(["mailserver", "config", "--maildir-rot", "/srv/mail", "--out", "/tmp/x"])).toBe(
      "mailserver config: unknown option --maildir-rot (see --help)",
    );
    // Postfix alone never greets on the submission port (no SASL): refused before anything starts, not a hang.
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-only-postfix-"));
    const dir = path.join(parent, "sandbox");
    expect(await usage(["mailserver", "sandbox", "--dir", dir, "--only", "postfix"])).toBe(
      "--only postfix: postfix needs dovecot (its SASL authentication on the submission port): add it, e.g. --only dovecot,postfix",
    );
    expect(await usage(["mailserver", "sandbox", "--dir", dir, "--only", "postfix,dns,redis"])).toMatch(
      /: add it, e\.g\. --only dns,redis,dovecot,postfix$/,
    );
    expect(fs.existsSync(dir)).toBe(false);
    fs.rmSync(parent, { recursive: true });
    expect(await usage(["domain", "add", "a.example", "--postmaster-password", "-dash-first1"])).toMatch(
      /^domain add: --postmaster-password needs a value \(one that starts with - is written --postmaster-password=-\.\.\.\) \(see --help\)$/,
    );
  });
});

describe("the CLI process", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-cli-"));
  const dbPath = path.join(dir, "mail.db");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cli = (...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args],
      {
        encoding: "utf8",
        env: { ...process.env, DATABASE_PATH: dbPath },
        timeout: 60_000,
      },
    );
    return { stdout: r.stdout, stderr: r.stderr, status: r.status };
  };

  it("--help exits 0 on stdout, and creates no database", () => {
    const r = cli("mailserver", "housekeeping", "--help");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run --silent cli -- mailserver housekeeping /);
    expect(r.stderr).toBe("");
    expect(fs.existsSync(dbPath)).toBe(false);
  });

  it("wrong usage exits 2 with one line on stderr naming the problem", () => {
    for (const [args, message] of [
      [
        ["mailserver", "config", "--out", dir, "--maildir-rot", "/srv/mail"],
        "mailserver config: unknown option --maildir-rot (see --help)",
      ],
      [
        ["domain", "add", "x.example", "--postmaster-password"],
        "domain add: --postmaster-password needs a value (see --help)",
      ],
      [
        ["domain", "set-limits", "x.example", "--alias-limit", "many"],
        "domain set-limits: --alias-limit needs a whole number from 0 to 2147483647, not 'many'",
      ],
      // More than a limit column holds: PostgreSQL refused it with its raw SQL error, SQLite stored it.
      [
        ["domain", "add", "x.example", "--account-limit", "99999999999"],
        "domain add: --account-limit is too large: at most 2147483647, not '99999999999'",
      ],
      [
        ["domain", "set-limits", "x.example", "--mailinglist-limit", "2147483648"],
        "domain set-limits: --mailinglist-limit is too large: at most 2147483647, not '2147483648'",
      ],
      [["nonsense"], "unknown command 'nonsense' (see --help)"],
    ] as const) {
      const r = cli(...args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr).toBe(`error: ${message}\n`);
      expect(r.stdout).toBe("");
    }
    expect(fs.existsSync(dbPath)).toBe(false);
  });

  it("mailserver sandbox send to a sandbox that has stopped says so in one line, with how to start it", async () => {
    // A sandbox's folder after it stopped: its sandbox.json names ports nothing listens on any more.
    const sandbox = path.join(dir, "stopped-sandbox");
    fs.mkdirSync(sandbox);
    const port = await freePort();
    fs.writeFileSync(path.join(sandbox, "sandbox.json"), JSON.stringify({ smtp: port, submission: port }));
    const r = cli("mailserver", "sandbox", "send", "--dir", sandbox, "--from", "a@x.test", "--to", "b@y.test");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: nothing answers on 127.0.0.1:${port}: the sandbox in ${sandbox} is not running ` +
        `(start it with \`npm run --silent cli -- mailserver sandbox --dir ${sandbox}\`)\n`,
    );
    // One on PostgreSQL with its own DNS port, publishing the domains' records: the hint starts that one again (before,
    // without --database postgres it started a sandbox on the SQLite file, and without --dns-port on another port).
    fs.writeFileSync(
      path.join(sandbox, "sandbox.json"),
      JSON.stringify({ smtp: port, database_engine: "postgres", dns_port: 5353, publish_dns: true, port_base: null }),
    );
    const pg = cli("mailserver", "sandbox", "send", "--dir", sandbox, "--from", "a@x.test", "--to", "b@y.test");
    expect(pg.stderr).toContain(
      `(start it with \`npm run --silent cli -- mailserver sandbox --dir ${sandbox} --database postgres --dns-port 5353 --publish-dns\`)`,
    );
  });

  it("a PostgreSQL database that cannot be opened is named, without its password, with the driver's reason", async () => {
    const port = await freePort();
    const r = spawnSync(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", "domain", "list"],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          DATABASE_URL: `postgres://mailadmin:s3cret@127.0.0.1:${port}/mailadmin?sslmode=require`,
        },
        timeout: 60_000,
      },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `error: the database at 127.0.0.1:${port}/mailadmin (DATABASE_URL) could not be opened: ` +
        `connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
  });

  it("with the PostgreSQL database down, --help, wrong usage and sandbox send work without it", async () => {
    // The CLI opened and migrated the database before every command: `domain list --help` exited 1 with the primary
    // down (and applied pending migrations with it up), and `sandbox send` could not rehearse the outage.
    const port = await freePort();
    const down = (...args: string[]) =>
      spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: `postgres://mailadmin:s3cret@127.0.0.1:${port}/mailadmin` },
        timeout: 60_000,
      });
    const help = down("domain", "list", "--help");
    expect([help.status, help.stderr]).toEqual([0, ""]);
    expect(help.stdout).toMatch(/^Usage: npm run --silent cli -- domain list /);
    const wrong = down("domain", "list", "--no-such-option");
    expect([wrong.status, wrong.stderr]).toEqual([
      2,
      "error: domain list: unknown option --no-such-option (see --help)\n",
    ]);
    const sandbox = path.join(dir, "sandbox-without-database");
    fs.mkdirSync(sandbox);
    const smtp = await freePort();
    fs.writeFileSync(path.join(sandbox, "sandbox.json"), JSON.stringify({ smtp, submission: smtp }));
    const send = down("mailserver", "sandbox", "send", "--dir", sandbox, "--from", "a@x.test", "--to", "b@y.test");
    expect(send.status).toBe(1);
    expect(send.stderr).toMatch(new RegExp(`^error: nothing answers on 127\\.0\\.0\\.1:${smtp}: the sandbox in `));
    // A command that uses the database still names it when it cannot be opened.
    expect(down("domain", "list").stderr).toContain("(DATABASE_URL) could not be opened: connect ECONNREFUSED");
  });

  it("db backup of a missing database fails without creating one", () => {
    const r = cli("db", "backup", path.join(dir, "copy.db"));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`error: ${dbPath} does not exist (DATABASE_PATH)\n`);
    expect(fs.existsSync(dbPath)).toBe(false);
    expect(fs.existsSync(path.join(dir, "copy.db"))).toBe(false);
  });

  it("a failure that is not wrong usage exits 1 with one line", () => {
    const r = cli("domain", "show", "absent.example");
    expect(r.status).toBe(1);
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stderr).toMatch(/^error: .+\n$/);
  });

  it("db migrate on a new SQLite file says how many migrations it applied, then that none were pending", () => {
    const file = path.join(dir, "fresh.db");
    const env = { ...process.env, DATABASE_PATH: file };
    const cliArgs = ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts"];
    const journal = JSON.parse(fs.readFileSync("db/sqlite/migrations/meta/_journal.json", "utf8")) as {
      entries: unknown[];
    };
    const first = spawnSync(process.execPath, [...cliArgs, "db", "migrate"], { env, encoding: "utf8" });
    expect(first.stderr).toBe("");
    expect(first.stdout).toBe(`Database migrated: ${file} (${journal.entries.length} migrations applied)\n`);
    const again = spawnSync(process.execPath, [...cliArgs, "db", "migrate"], { env, encoding: "utf8" });
    expect(again.stdout).toBe(`Database migrated: ${file} (already up to date)\n`);
  });

  it("config, housekeeping and events refuse a host name mail_hosts does not have, as domain set-mail-host does", async () => {
    const file = path.join(dir, "hosts.db");
    const out = path.join(dir, "hosts-config");
    const run = (env: Record<string, string>, ...args: string[]) =>
      spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args], {
        encoding: "utf8",
        env: { ...process.env, DATABASE_PATH: file, ...env },
        timeout: 30_000,
      });
    expect(run({}, "db", "migrate").status).toBe(0);
    expect(run({}, "mailserver", "host", "set", "imap1", "--address", "127.0.0.1").status).toBe(0);
    const refused = "error: no mail host imap9 (add it: mailserver host set imap9 --address <address>)\n";
    // Before, each took the name: config wrote queries proxying every placed mailbox away, housekeeping said "nothing
    // to do" for the mailboxes placed on the host, and events ran without sending their SMS.
    const port = await freePort();
    for (const [env, args] of [
      [{ MAIL_HOST_NAME: "imap9" }, ["mailserver", "config", "--out", out]],
      [{ MAIL_HOST_NAME: "imap1" }, ["mailserver", "config", "--out", out, "--host-name", "imap9"]],
      [{ MAIL_HOST_NAME: "imap9" }, ["mailserver", "housekeeping", "--doveadm", "/bin/true"]],
      [
        { MAIL_HOST_NAME: "imap9" },
        ["mailserver", "events", "--listen", `127.0.0.1:${port}`, "--dkim-dir", path.join(dir, "dkim")],
      ],
    ] as const) {
      const r = run(env, ...args);
      expect([r.status, r.stderr], args.join(" ")).toEqual([1, refused]);
    }
    expect(fs.existsSync(out)).toBe(false);
    const known = run({ MAIL_HOST_NAME: "imap1" }, "mailserver", "config", "--out", out);
    expect(known.stderr).toBe("");
    expect(fs.readFileSync(path.join(out, "postfix", "mailbox-transport.cf"), "utf8")).toContain("host <> 'imap1'");
  }, 90_000);

  it("hands all of a long output to a slow pipe before it exits (process.exit dropped all but 64 KiB)", async () => {
    const big = path.join(dir, "big.db");
    const env = { ...process.env, DATABASE_PATH: big };
    const cliArgs = ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts"];
    expect(spawnSync(process.execPath, [...cliArgs, "db", "migrate"], { env }).status).toBe(0);
    const added = spawnSync(
      process.execPath,
      [...cliArgs, "domain", "add", "d0.test", "--postmaster-password", "Admin-pass1"],
      { env },
    );
    expect(added.status).toBe(0);
    // 2,000 domains (about 160 kB of `domain list`), copied from the first in SQL: a key pair each would take minutes.
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(big);
    const columns = (db.prepare("PRAGMA table_info(domains)").all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== "id");
    const named = new Set(["name", "search_key"]);
    const copy = db.prepare(
      `INSERT INTO domains (${columns.map((c) => `"${c}"`).join(", ")}) SELECT ${columns.map((c) => (named.has(c) ? "@name" : `"${c}"`)).join(", ")} FROM domains WHERE name = 'd0.test'`,
    );
    db.transaction(() => {
      for (let i = 1; i < 2000; i++) copy.run({ name: `d${i}.test` });
    })();
    db.close();
    // The reader takes nothing for a second, so the pipe (64 KiB) is full long before the CLI is done writing.
    const piped = spawnSync("sh", ["-c", `"$0" "$@" domain list | { sleep 1; wc -l; }`, process.execPath, ...cliArgs], {
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(piped.stdout.trim()).toBe("2000");
    // A reader that stops early (`| head -1`, `| grep -m1`) ends it quietly: the pipe's EPIPE was an unhandled
    // 'error' event with Node's stack trace.
    const head = spawnSync("sh", ["-c", `"$0" "$@" domain list | head -1`, process.execPath, ...cliArgs], {
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(head.stdout).toMatch(/^d0\.test\t[^\n]*\n$/);
    expect(head.stderr).toBe("");
  });

  it("takes a relative file or folder from the operator's directory (INIT_CWD), not the package's", () => {
    // `npm run cli` runs in the package's folder and names the operator's directory in INIT_CWD: the operator's
    // files are there, and nothing may be read from or written to the package's folder instead.
    const root = process.cwd();
    const here = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-operator-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_PATH: path.join(dir, "relative.db"),
      INIT_CWD: here,
      SCRYPT_COST: "1024",
      MAIL_HOST_NAME: undefined,
    };
    const run = (input: string | undefined, ...args: string[]) => {
      const r = spawnSync(
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts", ...args],
        {
          cwd: root,
          env,
          input,
          encoding: "utf8",
          timeout: 60_000,
        },
      );
      expect([r.status, r.stderr], args.join(" ")).toEqual([0, ""]);
      return r.stdout;
    };
    const write = (name: string, text: string) => fs.writeFileSync(path.join(here, name), text);
    try {
      run(undefined, "db", "migrate");
      write("domains.txt", "rel.test Admin-pass1\nrel2.test Admin-pass1 customer=rel.test\n");
      expect(run(undefined, "domain", "import", "domains.txt")).toMatch(/^2 added, 0 already hosted, 0 failed$/m);
      write("limits.txt", "rel.test alias-limit=7\n");
      run(undefined, "domain", "set-limits", "--file", "limits.txt");
      // - is still standard input.
      run("rel2.test alias-limit=8\n", "domain", "set-limits", "--file", "-");
      write("customers.txt", "rel.test account-limit=9\n");
      run(undefined, "customer", "set-limits", "--file", "customers.txt");
      expect(run(undefined, "customer", "show", "rel.test")).toMatch(/"account_limit": 9,/);
      write("hosts.txt", "rel2.test\n");
      run(undefined, "mailserver", "host", "set", "imap1", "--address", "127.0.0.1");
      run(undefined, "domain", "set-mail-host", "--file", "hosts.txt", "--mail-host", "imap1");
      const aliasLimit = (domain: string) =>
        (JSON.parse(run(undefined, "domain", "show", domain)) as { alias_limit: string }).alias_limit;
      expect([aliasLimit("rel.test"), aliasLimit("rel2.test")]).toEqual(["7", "8"]);
      expect(run(undefined, "domain", "list", "--mail-host", "imap1")).toMatch(/^rel2\.test\t/);
      write("accounts.jsonl", `${JSON.stringify({ email: "jan@rel.test", password: "Jan-pass1" })}\n`);
      expect(run(undefined, "account", "import", "accounts.jsonl")).toMatch(/^created\tjan@rel\.test/m);

      // Written there too: a backup, the mail server's configuration; and read back from there by db restore.
      expect(run(undefined, "db", "backup", "copy.db")).toContain(`Backup written to ${path.join(here, "copy.db")} (`);
      run(undefined, "db", "restore", "copy.db", "--yes");
      expect(run(undefined, "mailserver", "config", "--out", "conf")).toContain(
        `; read ${path.join(here, "conf", "README.md")}.`,
      );
      expect(fs.existsSync(path.join(here, "conf", "postfix"))).toBe(true);
      for (const name of ["copy.db", "conf"]) expect(fs.existsSync(path.join(root, name)), name).toBe(false);
    } finally {
      fs.rmSync(here, { recursive: true, force: true });
    }
  }, 120_000);

  it("domain import prints each domain's line, with its generated password, as soon as it is added", async () => {
    const db = path.join(dir, "import.db");
    const env = { ...process.env, DATABASE_PATH: db, SCRYPT_COST: "1024" };
    const cliArgs = ["--conditions=react-server", "--import", "tsx", "lib/cli/index.ts"];
    expect(spawnSync(process.execPath, [...cliArgs, "db", "migrate"], { env }).status).toBe(0);
    const file = path.join(dir, "import.txt");
    fs.writeFileSync(file, ["i0.test -", "i1.test -", "i2.test -", "i3.test -", "i4.test -", "i5.test -"].join("\n"));
    // Cut short (SIGINT) once the first line is out: the lines printed by then stay, each with its password (the whole
    // report used to come at the end, so an interrupted import had printed nothing and its passwords were lost).
    const child = spawn(process.execPath, [...cliArgs, "domain", "import", file, "--concurrency", "1"], { env });
    let stdout = "";
    const first = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (!stdout) resolve(chunk.toString("utf8"));
        stdout += chunk.toString("utf8");
      });
      child.on("exit", () => reject(new Error(`the import ended before printing anything: ${stdout}`)));
    });
    child.kill("SIGINT");
    await new Promise((resolve) => child.on("close", resolve));
    expect(first).toMatch(/^added\ti0\.test\tcustomer \d+\tpassword \S+\n/);
    expect(first).not.toMatch(/added, \d+ already hosted/);
    for (const line of stdout.trim().split("\n"))
      expect(line).toMatch(/^added\ti\d\.test\tcustomer \d+\tpassword \S+$|^\d+ added, \d+ already hosted/);
  });
});
