// `domain dns-check --all`: every hosted domain checked against a real resolver (the sandbox's loopback DNS server,
// publishing what each domain's DNS page asks for), the domains that lack something named with what they lack.
// `domain import`: many domains from a file, as `domain add` adds one, on a database of its own; and `demo`'s logins.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { publishHostedDomains } from "@/lib/mailserver/sandbox/publish-dns";
import { readDnsRecords, startDnsServer, writeDnsRecords, type DnsServer } from "@/lib/mailserver/sandbox/dns-server";
import { verifyDigest, sha1Hex } from "@/lib/server/caller/password";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import { listCustomers } from "@/lib/server/resources/customers";
import { findDomain, getDomainOrThrow } from "@/lib/server/resources/domains";
import { currentDkimKey } from "@/lib/mailserver/dkim";
import { addDomain } from "@/lib/server/resources/new-domain";
import { FailedWithReport, UsageError } from "./args";
import { runCommand } from "./commands";

vi.mock("server-only", () => ({}));

const DOMAINS = ["a.test", "b.test", "c.test", "d.test"];
let dir: string;
let db: Db;
let records: string;
let dns: DnsServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-dns-all-"));
  db = openDatabase(path.join(dir, "mail.db"));
  for (const name of DOMAINS) await addDomain(db, name, "Admin-pass1", {});
  records = path.join(dir, "records.json");
  writeDnsRecords(records, {});
  await publishHostedDomains(db, records);
  dns = await startDnsServer(records, 0);
  process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`;
});
afterAll(async () => {
  delete process.env.DNS_RESOLVER;
  await dns?.close();
  db?.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A command's output, or its report and one-line error when it ran and found problems (exit 1). */
async function run(on: Db, argv: string[]): Promise<{ ok: boolean; output: string; error?: string }> {
  try {
    return { ok: true, output: await runCommand(on, argv) };
  } catch (err) {
    if (!(err instanceof FailedWithReport)) throw err;
    return { ok: false, output: err.output, error: err.message };
  }
}
const dnsCheck = (...args: string[]) => run(db, ["domain", "dns-check", ...args]);

describe("domain dns-check --all", () => {
  it("passes when every domain has every record, and names each domain that lacks one with what it lacks", async () => {
    expect(await dnsCheck("--all")).toEqual({ ok: true, output: "4 of 4 domains have every DNS record they need" });

    const published = readDnsRecords(records);
    delete published["_dmarc.b.test"];
    published["c.test"] = { ...published["c.test"], MX: ["10 mx.elsewhere.test"] };
    delete published["autoconfig.c.test"];
    writeDnsRecords(records, published);

    const bad = await dnsCheck("--all", "--concurrency", "1");
    expect(bad.ok).toBe(false);
    expect(bad.error).toBe("2 of 4 domains lack DNS records they need");
    expect(bad.output.split("\n")).toEqual([
      "b.test\tmissing dmarc",
      "c.test\tdifferent mx; missing autoconfig",
      "2 of 4 domains have every DNS record they need",
    ]);
    // Checked many at once, the answer is the same, in the domains' order.
    expect(await dnsCheck("--all", "--concurrency", "16")).toEqual(bad);

    const json = await dnsCheck("--all", "--json");
    const reports = JSON.parse(json.output) as { domain: string; ok: boolean; records: { kind: string }[] }[];
    expect(reports.map((r) => [r.domain, r.ok])).toEqual([
      ["a.test", true],
      ["b.test", false],
      ["c.test", false],
      ["d.test", true],
    ]);
    expect(reports[0]!.records.map((r) => r.kind)).toContain("dkim");
    expect(json.error).toBe(bad.error);
  });

  it("takes one domain or --all, not both and not neither", async () => {
    for (const args of [[], ["a.test", "--all"]]) {
      await expect(runCommand(db, ["domain", "dns-check", ...args])).rejects.toThrow(
        new UsageError("domain dns-check: name one domain, or give --all for every hosted domain"),
      );
    }
    await expect(runCommand(db, ["domain", "dns-check", "--all", "--concurrency", "0"])).rejects.toThrow(
      "--concurrency needs a whole number of at least 1",
    );
  });
});

describe("domain dkim show", () => {
  it("exits 0 when DNS holds the signing record, 1 with one line when it is missing or DNS cannot be asked", async () => {
    const show = () => run(db, ["domain", "dkim", "show", "d.test"]);
    const ok = await show();
    expect(ok.ok).toBe(true);
    expect(ok.output).toMatch(/\nsigning, DNS: published$/);

    const published = readDnsRecords(records);
    const name = Object.keys(published).find((n) => n.endsWith("._domainkey.d.test"))!;
    const { [name]: dkim, ...rest } = published;
    writeDnsRecords(records, rest);
    try {
      const missing = await show();
      expect(missing).toEqual({
        ok: false,
        output: ok.output.replace(/published$/, "missing"),
        error: "DNS does not hold the DKIM record of d.test as printed (signing missing)",
      });
    } finally {
      writeDnsRecords(records, { ...rest, [name]: dkim! });
    }
    // Nothing answers on this port: the record cannot be confirmed.
    process.env.DNS_RESOLVER = "127.0.0.1:9";
    try {
      const unasked = await show();
      expect(unasked.ok).toBe(false);
      expect(unasked.error).toBe("DNS does not hold the DKIM record of d.test as printed (signing error)");
    } finally {
      process.env.DNS_RESOLVER = `127.0.0.1:${dns.port}`;
    }
    expect((await show()).ok).toBe(true);
  });
});

describe("domain add", () => {
  it("refuses a name over 221 characters, whose addresses would pass the 254 of an address", async () => {
    const name = (n: number) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(n - 195)}.pl`;
    expect(name(222)).toHaveLength(222);
    await expect(
      runCommand(db, ["domain", "add", name(222), "--postmaster-password", "Option-pass1"]),
    ).rejects.toMatchObject({ key: "invalidDomainName" });
    expect(await runCommand(db, ["domain", "add", name(221), "--postmaster-password", "Option-pass1"])).toMatch(
      /log in as postmaster@/,
    );
  });

  it("takes the postmaster's password from the option, else POSTMASTER_PASSWORD, else generates and prints one", async () => {
    const passwordOf = async (domain: string) =>
      (await getAccountOrThrow(db, await getDomainOrThrow(db, domain), "postmaster")).passwordHash;
    expect(await runCommand(db, ["domain", "add", "opt.test", "--postmaster-password", "Option-pass1"])).toMatch(
      /log in as postmaster@opt\.test\.$/,
    );
    expect(verifyDigest(sha1Hex("Option-pass1"), await passwordOf("opt.test"))).toBe(true);
    process.env.POSTMASTER_PASSWORD = "Env-pass1";
    try {
      expect(await runCommand(db, ["domain", "add", "env.test"])).toMatch(/log in as postmaster@env\.test\.$/);
    } finally {
      delete process.env.POSTMASTER_PASSWORD;
    }
    expect(verifyDigest(sha1Hex("Env-pass1"), await passwordOf("env.test"))).toBe(true);
    // 16 characters, past the rule's 15: the error names the variable, not the option that was not given.
    process.env.POSTMASTER_PASSWORD = "Postmaster-pass1";
    try {
      await expect(runCommand(db, ["domain", "add", "long.test"])).rejects.toMatchObject({
        source: "POSTMASTER_PASSWORD",
      });
    } finally {
      delete process.env.POSTMASTER_PASSWORD;
    }
    const out = await runCommand(db, ["domain", "add", "gen.test"]);
    const generated = / with the password (\S+) \(generated, shown only here\)\.$/.exec(out)?.[1];
    expect(generated).toBeDefined();
    expect(verifyDigest(sha1Hex(generated!), await passwordOf("gen.test"))).toBe(true);
  });
});

describe("a capacity limit below the postmaster's default capacity", () => {
  const capacityOf = async (domain: string) =>
    (await getAccountOrThrow(db, await getDomainOrThrow(db, domain), "postmaster")).capacity;
  const add = (domain: string, ...options: string[]) =>
    runCommand(db, ["domain", "add", domain, "--postmaster-password", "Admin-pass1", ...options]);

  it("gives the postmaster the room the limit in force leaves: domain add, domain import, a customer's pool", async () => {
    // Before, each of these was refused with 500.367: the postmaster got 1024 MB whatever the limit.
    await add("small.test", "--capacity-limit", "500");
    expect(await capacityOf("small.test")).toBe(500);
    await add("roomy.test", "--capacity-limit", "5000");
    expect(await capacityOf("roomy.test")).toBe(1024);
    const file = path.join(dir, "small-domains.txt");
    fs.writeFileSync(file, "tiny.test Admin-pass1 capacity-limit=300\n");
    expect(await run(db, ["domain", "import", file])).toMatchObject({ ok: true });
    expect(await capacityOf("tiny.test")).toBe(300);

    // A pool of 800 MB with 500 given to small.test's postmaster: the next domain's postmaster gets the other 300.
    await runCommand(db, ["customer", "set-limits", "small.test", "--capacity-limit", "800"]);
    await add("pooled.test", "--customer", "small.test");
    expect(await capacityOf("pooled.test")).toBe(300);
    // No room left: refused as any account past the limit, and nothing is added.
    await expect(add("full.test", "--customer", "small.test")).rejects.toMatchObject({ key: "capacityLimitReached" });
    expect(await findDomain(db, "full.test")).toBeUndefined();
  });
});

describe("domain import", () => {
  let own: Db;
  let file: string;
  beforeAll(() => {
    own = openDatabase(path.join(dir, "import.db"));
    file = path.join(dir, "domains.txt");
    fs.writeFileSync(
      file,
      [
        "# a provider's domains",
        "alpha.example   Alpha-pass1  account-limit=50 capacity-limit=2048",
        "beta.example    -            customer=alpha.example",
        "",
        "gamma.example   -            alias-limit=5",
        "bad_name        -",
        "delta.example   short",
        "eps.example     -            colour=blue",
        "alpha.example   Other-pass2",
        "zeta.example    -            account-limit=x",
      ].join("\n"),
    );
  });
  afterAll(() => own?.$client.close());

  it("adds the lines in order as domain add would, prints generated passwords, names each failed line", async () => {
    const first = await run(own, ["domain", "import", file, "--concurrency", "2"]);
    expect(first.error).toBe("4 of 8 lines failed");
    const lines = first.output.split("\n");
    expect(lines[0]).toBe("added\talpha.example\tcustomer 1");
    expect(lines[1]).toMatch(/^added\tbeta\.example\tcustomer 1\tpassword ([A-Za-z2-9]{12})$/);
    expect(lines[2]).toMatch(/^added\tgamma\.example\tcustomer 2\tpassword [A-Za-z2-9]{12}$/);
    expect(lines.slice(3)).toEqual([
      "failed\tbad_name\tline 6: Nieprawidłowa nazwa domeny. (domain) [500.363]",
      expect.stringMatching(/^failed\tdelta\.example\tline 7: .*\(--postmaster-password\) \[500\.304\]$/),
      expect.stringMatching(/^failed\teps\.example\tline 8: unknown option 'colour=blue'/),
      "exists\talpha.example",
      "failed\tzeta.example\tline 10: domain import: account-limit= needs a whole number from 0 to 2147483647, not 'x'",
      "3 added, 1 already hosted, 4 failed",
    ]);

    // What domain add makes: the limits, the customer named by a domain of an earlier line, a postmaster who signs
    // in with the given or the printed password, a DKIM key.
    const alpha = await getDomainOrThrow(own, "alpha.example");
    expect([alpha.accountLimit, alpha.capacityLimit, alpha.aliasLimit]).toEqual([50, 2048, 1000]);
    expect((await getDomainOrThrow(own, "gamma.example")).aliasLimit).toBe(5);
    expect((await listCustomers(own)).map((c) => c.domains)).toEqual([
      ["alpha.example", "beta.example"],
      ["gamma.example"],
    ]);
    const printed = /password (\S+)$/.exec(lines[1]!)![1]!;
    for (const [domain, password] of [
      ["alpha.example", "Alpha-pass1"],
      ["beta.example", printed],
    ] as const) {
      const postmaster = await getAccountOrThrow(own, await getDomainOrThrow(own, domain), "postmaster");
      expect(verifyDigest(sha1Hex(password), postmaster.passwordHash)).toBe(true);
      expect(postmaster.mailPasswordHash).toMatch(/^\{SHA512-CRYPT\}\$6\$/);
      expect(await currentDkimKey(own, postmaster.domainId)).toBeDefined();
    }

    // Run again once the failed lines are fixed: the hosted domains stay as they are, the others are added.
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, "utf8")
        .replace("bad_name ", "bad.example")
        .replace(" short", " Delta-pass1")
        .replace("colour=blue", "")
        .replace("account-limit=x", "account-limit=10"),
    );
    const second = await run(own, ["domain", "import", file]);
    expect(second.ok).toBe(true);
    expect(second.output.split("\n").map((l) => l.split("\t").slice(0, 2).join(" "))).toEqual([
      "exists alpha.example",
      "exists beta.example",
      "exists gamma.example",
      "added bad.example",
      "added delta.example",
      "added eps.example",
      "exists alpha.example",
      "added zeta.example",
      "4 added, 4 already hosted, 0 failed",
    ]);
  });
});

describe("the lines of domain import and set-limits --file", () => {
  let own: Db;
  beforeAll(() => {
    own = openDatabase(path.join(dir, "lines.db"));
  });
  afterAll(() => own?.$client.close());
  const lines = (name: string, ...text: string[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text.join("\n"));
    return file;
  };

  it("word a refusal as the line spells it, say too large, and refuse a line without a password", async () => {
    await runCommand(own, ["domain", "add", "pc.example", "--postmaster-password", "Admin-pass1"]);
    const customer = (await getDomainOrThrow(own, "pc.example")).customerId!;
    await runCommand(own, ["customer", "set-limits", "pc.example", "--capacity-limit", "5000"]);
    const pooled =
      `capacity-limit= is pooled over customer ${customer}'s domains; set it with ` +
      `\`customer set-limits ${customer} --capacity-limit MB\` (or \`none\` to give each domain its own again); `;
    const imported = await run(own, [
      "domain",
      "import",
      lines(
        "import.txt",
        "pd.example - customer=pc.example capacity-limit=10",
        "pe.example - capacity-limit=99999999999999999999",
        "new3.example",
        "new4.example account-limit=5",
        "pf.example -",
      ),
    ]);
    const noPassword = "no postmaster password: give one after the domain, or - to have one generated";
    expect(imported.output.split("\n")).toEqual([
      `failed\tpd.example\tline 1: ${pooled}nothing was added`,
      "failed\tpe.example\tline 2: domain import: capacity-limit= is too large: at most 9007199254740991, " +
        "not '99999999999999999999'",
      `failed\tnew3.example\tline 3: ${noPassword}`,
      `failed\tnew4.example\tline 4: ${noPassword}`,
      expect.stringMatching(/^added\tpf\.example\tcustomer \d+\tpassword \S+$/),
      "1 added, 0 already hosted, 4 failed",
    ]);
    for (const name of ["pd.example", "pe.example", "new3.example", "new4.example"])
      expect(await findDomain(own, name)).toBeUndefined();
    const limited = await run(own, [
      "domain",
      "set-limits",
      "--file",
      lines("limits.txt", "pc.example capacity-limit=10"),
    ]);
    expect(limited.output.split("\n")).toEqual([
      `failed\tpc.example\tline 1: ${pooled}nothing was changed`,
      "0 changed, 1 failed",
    ]);
  });

  it("name a file that is missing or a folder in one line, not as a usage error", async () => {
    const missing = path.join(dir, "no-such-file.txt");
    for (const argv of [
      ["domain", "import", missing],
      ["account", "import", missing],
      ["domain", "set-limits", "--file", missing],
      ["customer", "set-limits", "--file", missing],
    ]) {
      const err = await runCommand(own, argv).catch((e: unknown) => e);
      expect(err).not.toBeInstanceOf(UsageError);
      expect((err as Error).message, argv.join(" ")).toBe(`cannot read ${missing}: there is no such file`);
      const folder = await runCommand(
        own,
        argv.map((a) => (a === missing ? dir : a)),
      ).catch((e: unknown) => e);
      expect(folder).not.toBeInstanceOf(UsageError);
      expect((folder as Error).message, argv.join(" ")).toBe(`cannot read ${dir}: it is a folder, not a file`);
    }
  });
});

describe("customer show, rename and set-limits", () => {
  it("name the customer by its id or by a domain it owns", async () => {
    // Customer 1 owns alpha.example and beta.example (domain import, above); gamma.example is customer 2's.
    const own = openDatabase(path.join(dir, "import.db"));
    try {
      const shown = async (who: string) =>
        JSON.parse(await runCommand(own, ["customer", "show", who])) as { id: number; domains: { name: string }[] };
      expect((await shown("beta.example")).id).toBe(1);
      expect((await shown("BETA.example")).domains.map((d) => d.name)).toEqual(["alpha.example", "beta.example"]);
      expect((await shown("gamma.example")).id).toBe(2);
      expect(await shown("alpha.example")).toEqual(await shown("1"));
      expect(await runCommand(own, ["customer", "rename", "gamma.example", "Gamma Ltd"])).toBe("2\tGamma Ltd");
      await runCommand(own, ["customer", "set-limits", "alpha.example", "--account-limit", "70"]);
      expect((await listCustomers(own)).slice(0, 2).map((c) => [c.id, c.accountLimit])).toEqual([
        [1, 70],
        [2, null],
      ]);
    } finally {
      own.$client.close();
    }
  });

  it("an id or a domain that names no customer is an error (exit 1); an argument that is neither is wrong usage (exit 2)", async () => {
    const own = openDatabase(path.join(dir, "import.db"));
    /** The exit status lib/cli/index.ts gives the command's error, and its message. */
    const outcome = (argv: string[]) =>
      runCommand(own, argv).then(
        () => ({ status: 0, message: "" }),
        (err: Error) => ({ status: err instanceof UsageError ? 2 : 1, message: err.message }),
      );
    try {
      for (const command of [["show"], ["rename"], ["set-limits"]]) {
        const name = `customer ${command[0]}`;
        const extra =
          command[0] === "rename" ? ["New name"] : command[0] === "set-limits" ? ["--alias-limit", "5"] : [];
        const run = (who: string) => outcome(["customer", ...command, who, ...extra]);
        // Before: exit 2 for an unknown domain, as if the command had been misspelt.
        expect(await run("nowhere.example")).toEqual({
          status: 1,
          message: `${name} <id>|<domain>: nowhere.example is not a hosted domain (see \`domain list\`)`,
        });
        expect(await run("999")).toEqual({
          status: 1,
          message: `${name} <id>|<domain>: no customer with id 999 (see \`customer list\`)`,
        });
        for (const bad of ["not a domain", "-1x", "alpha..example", "12345678901234567890"])
          expect((await run(bad)).status, bad).toBe(2);
        expect(await run("al pha")).toEqual({
          status: 2,
          message: `${name} <id>|<domain>: must be a customer id (see \`customer list\`) or a hosted domain, not 'al pha'`,
        });
      }
      // Nothing was changed by the refused commands.
      expect((await listCustomers(own)).slice(0, 2).map((c) => [c.id, c.name, c.aliasLimit])).toEqual([
        [1, expect.any(String), null],
        [2, "Gamma Ltd", null],
      ]);
      // domain add --customer reads it the same way (one resolver).
      expect(await outcome(["domain", "add", "epsilon.example", "--customer", "nowhere.example"])).toMatchObject({
        status: 1,
        message: "domain add --customer: nowhere.example is not a hosted domain (see `domain list`)",
      });
      expect((await outcome(["domain", "add", "epsilon.example", "--customer", "no such"])).status).toBe(2);
      expect(await findDomain(own, "epsilon.example")).toBeUndefined();
    } finally {
      own.$client.close();
    }
  });

  it("--help of each customer command states its exit statuses", async () => {
    for (const command of ["show", "rename", "set-limits"])
      expect(await runCommand(db, ["customer", command, "--help"])).toContain(
        "Exit status: 0 done; 1 no such customer (an id or a hosted domain that names none); 2 wrong usage",
      );
    expect(await runCommand(db, ["customer", "list", "--help"])).toContain("Exit status: 0 done");
  });
});

describe("domain set-mail-host --file", () => {
  // A provider placing thousands of hosted domains on its mail hosts: one command and one transaction for a list of
  // names, not a process (a second or more) per domain.
  let own: Db;
  let file: string;
  beforeAll(async () => {
    own = openDatabase(path.join(dir, "placement.db"));
    for (const name of ["p1.example", "p2.example", "p3.example"]) await addDomain(own, name, "Admin-pass1", {});
    await runCommand(own, ["mailserver", "host", "set", "imap2", "--address", "192.0.2.2"]);
    file = path.join(dir, "placement.txt");
  });
  afterAll(() => own?.$client.close());
  const hostOf = async (name: string) => (await getDomainOrThrow(own, name)).mailHost;

  it("places every domain of the file, one a line (blank lines and # comments skipped), in one go", async () => {
    fs.writeFileSync(file, "# imap2's share\nP1.example\n\np2.example\n");
    expect(await runCommand(own, ["domain", "set-mail-host", "--file", file, "--mail-host", "imap2"])).toBe(
      "2 domains: mailboxes on imap2",
    );
    expect([await hostOf("p1.example"), await hostOf("p2.example"), await hostOf("p3.example")]).toEqual([
      "imap2",
      "imap2",
      null,
    ]);
    expect(await runCommand(own, ["mailserver", "host", "list"])).toMatch(/\t2 domain\(s\)\t/);
  });

  it("changes nothing when a name is not hosted or the host does not exist, and names what is wrong", async () => {
    fs.writeFileSync(file, "p3.example\nnowhere.example\np1.example\n");
    await expect(runCommand(own, ["domain", "set-mail-host", "--file", file, "--mail-host", "none"])).rejects.toThrow(
      "1 of 3 domains not hosted, none placed: nowhere.example",
    );
    expect(await hostOf("p1.example")).toBe("imap2");
    fs.writeFileSync(file, "p3.example\n");
    await expect(runCommand(own, ["domain", "set-mail-host", "--file", file, "--mail-host", "imap9"])).rejects.toThrow(
      /no mail host imap9/,
    );
    expect(await hostOf("p3.example")).toBeNull();
    // A misspelt host is named, not answered with an empty user list for a move's doveadm -F.
    await expect(runCommand(own, ["mailserver", "host", "accounts", "imap9"])).rejects.toThrow(/no mail host imap9/);
  });

  it("domain list names each domain's host, and --mail-host none finds the ones left to place", async () => {
    // p1 and p2 are on imap2 (above); a domain added later on none stays there until placed.
    await addDomain(own, "later.example", "Admin-pass1", {}, undefined, { mailHost: null });
    const names = async (...args: string[]) =>
      (await runCommand(own, ["domain", "list", ...args])).split("\n").map((l) => l.split("\t")[0]);
    expect(await runCommand(own, ["domain", "list"])).toMatch(/^p1\.example\t.*\thost imap2\tsend 1000\/h$/m);
    expect(await runCommand(own, ["domain", "list"])).toMatch(/^later\.example\t.*\thost none\tsend 1000\/h$/m);
    expect(await names("--mail-host", "none")).toEqual(["later.example", "p3.example"]);
    expect(await names("--mail-host", "imap2")).toEqual(["p1.example", "p2.example"]);
    expect(await names("--search", "P2")).toEqual(["p2.example"]);
    expect(await names("--mail-host", "none", "--search", "later")).toEqual(["later.example"]);
    // LIKE's wildcards are plain text in --search.
    expect(await runCommand(own, ["domain", "list", "--search", "p_"])).toBe("");
    await expect(runCommand(own, ["domain", "list", "--mail-host", "imap9"])).rejects.toThrow(/no mail host imap9/);
    // Piped into set-mail-host, the unplaced ones are placed in one go.
    fs.writeFileSync(file, (await names("--mail-host", "none")).join("\n"));
    await runCommand(own, ["domain", "set-mail-host", "--file", file, "--mail-host", "imap2"]);
    expect(await runCommand(own, ["domain", "list", "--mail-host", "none"])).toBe("");
  });

  it("takes one domain or --file, not both and not neither", async () => {
    const refused = async (argv: string[]) => {
      const err = await runCommand(own, argv).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    };
    expect(await refused(["domain", "set-mail-host", "p1.example", "--file", file, "--mail-host", "imap2"])).toMatch(
      /one domain or --file/,
    );
    expect(await refused(["domain", "set-mail-host", "--mail-host", "imap2"])).toMatch(/one domain or --file/);
  });
});

describe("domain add and domain import --mail-host", () => {
  // A domain added after the mail hosts were set up was on no host until `domain set-mail-host`: each MX stored its
  // mail locally, copies that later hid each other and blocked its move. Now it is placed as it is added, or left on
  // none on purpose.
  let own: Db;
  let file: string;
  const add = (name: string, ...options: string[]) =>
    runCommand(own, ["domain", "add", name, "--postmaster-password", "Admin-pass1", ...options]);
  const hostOf = async (name: string) => (await findDomain(own, name))?.mailHost;
  const refusal = async (argv: string[]) => {
    const err = await runCommand(own, argv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(UsageError); // a refusal (exit 1), as domain set-mail-host's
    return (err as Error).message;
  };
  const REQUIRED =
    "mail hosts are set up (imap1, imap2): place the new domain with --mail-host <name>, or give --mail-host none " +
    "to leave it on no host on purpose (docs/mail-hosts.md)";
  const NO_IMAP9 = "no mail host imap9 (add it: mailserver host set imap9 --address <address>)";
  beforeAll(() => {
    own = openDatabase(path.join(dir, "new-placement.db"));
    file = path.join(dir, "new-placement.txt");
  });
  afterAll(() => own?.$client.close());

  it("without mail hosts, adds a domain on no host as before; a host named must exist", async () => {
    expect(await add("before.example")).toMatch(/^Domain before\.example added \(customer \d+\); log in as/);
    expect(await hostOf("before.example")).toBeNull();
    expect(await refusal(["domain", "add", "h1.example", "--mail-host", "imap1"])).toBe(
      "no mail host imap1 (add it: mailserver host set imap1 --address <address>)",
    );
    expect(await findDomain(own, "h1.example")).toBeUndefined();
  });

  it("once hosts are set up, domain add requires --mail-host, places the domain on it, or on none when told", async () => {
    for (const host of ["imap2", "imap1"])
      await runCommand(own, ["mailserver", "host", "set", host, "--address", "192.0.2.9"]);
    expect(await refusal(["domain", "add", "h1.example", "--postmaster-password", "Admin-pass1"])).toBe(REQUIRED);
    expect(await refusal(["domain", "add", "h1.example", "--mail-host", "imap9"])).toBe(NO_IMAP9);
    expect(await findDomain(own, "h1.example")).toBeUndefined();
    expect(await add("h1.example", "--mail-host", "imap1")).toMatch(
      /^Domain h1\.example added \(customer \d+, mailboxes on imap1\); log in as postmaster@h1\.example\.$/,
    );
    expect(await hostOf("h1.example")).toBe("imap1");
    expect(await add("none.example", "--mail-host", "none")).toMatch(/^Domain none\.example added \(customer \d+\);/);
    expect(await hostOf("none.example")).toBeNull();
    expect(await runCommand(own, ["domain", "list", "--mail-host", "imap1"])).toMatch(/^h1\.example\t/);
  });

  it("domain import: every new domain on the host given; without one each new line fails; an unknown one adds none", async () => {
    fs.writeFileSync(file, "i1.example -\ni2.example Admin-pass1\nh1.example Admin-pass1\n");
    const without = await run(own, ["domain", "import", file]);
    expect(without).toEqual({
      ok: false,
      output: [
        `failed\ti1.example\tline 1: ${REQUIRED}`,
        `failed\ti2.example\tline 2: ${REQUIRED}`,
        "exists\th1.example",
        "0 added, 1 already hosted, 2 failed",
      ].join("\n"),
      error: "2 of 3 lines failed",
    });
    expect(await refusal(["domain", "import", file, "--mail-host", "imap9"])).toBe(NO_IMAP9);
    // Refused before the file is read: a missing one is not what the error names.
    expect(await refusal(["domain", "import", path.join(dir, "no-such-file.txt"), "--mail-host", "imap9"])).toBe(
      NO_IMAP9,
    );
    expect(await findDomain(own, "i1.example")).toBeUndefined();
    const out = await run(own, ["domain", "import", file, "--mail-host", "imap2"]);
    expect(out.output.split("\n").slice(1)).toEqual([
      expect.stringMatching(/^added\ti2\.example\tcustomer \d+$/) as string,
      "exists\th1.example",
      "2 added, 1 already hosted, 0 failed",
    ]);
    expect([await hostOf("i1.example"), await hostOf("i2.example")]).toEqual(["imap2", "imap2"]);
    // A domain already hosted keeps its host: moving one needs its mail copied first (docs/mail-hosts.md).
    expect(await hostOf("h1.example")).toBe("imap1");
    fs.writeFileSync(file, "i3.example Admin-pass1\n");
    await run(own, ["domain", "import", file, "--mail-host", "none"]);
    expect(await hostOf("i3.example")).toBeNull();
  });
});

describe("domain list, customer list and mailserver host list on a new database", () => {
  it("print nothing a script could read as a row, and a hint on stderr", async () => {
    const empty = openDatabase(path.join(dir, "empty.db"));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await runCommand(empty, ["domain", "list"])).toBe("");
      expect(await runCommand(empty, ["customer", "list"])).toBe("");
      expect(await runCommand(empty, ["mailserver", "host", "list"])).toBe("");
      expect(stderr.mock.calls.map(([text]) => String(text))).toEqual([
        "no domains yet: `domain add <domain>` adds one\n",
        "no customers yet: `domain add <domain>` adds one with its domain\n",
        "no mail hosts: every host serves every mailbox itself\n",
      ]);
      stderr.mockClear();
      await addDomain(empty, "first.example", "Admin-pass1", {});
      expect(await runCommand(empty, ["domain", "list"])).toMatch(/^first\.example\taccounts 1\//);
      expect(await runCommand(empty, ["customer", "list"])).toMatch(
        /\tfirst\.example\tper-domain limits\tfirst\.example$/,
      );
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      empty.$client.close();
    }
  });
});

describe("domain set-limits --file", () => {
  // A migration's hundreds of domains whose limits must change before their accounts fit: one process, a line per
  // domain, not a process (a second or two) per domain.
  let own: Db;
  let file: string;
  beforeAll(async () => {
    own = openDatabase(path.join(dir, "limits.db"));
    for (const name of ["q1.example", "q2.example", "q3.example"]) await addDomain(own, name, "Admin-pass1", {});
    file = path.join(dir, "limits.txt");
  });
  afterAll(() => own?.$client.close());

  it("sets each line's limits on its domain and names each line that fails, which changes nothing", async () => {
    const q3 = await getDomainOrThrow(own, "q3.example");
    fs.writeFileSync(
      file,
      [
        "# the big ones",
        "q1.example capacity-limit=500000 account-limit=2000",
        "",
        "Q2.example\tsend-limit=50",
        "nowhere.example capacity-limit=5",
        "q3.example colour=blue",
        "q3.example account-limit=-1 capacity-limit=7",
        "q3.example",
      ].join("\n"),
    );
    const err = await runCommand(own, ["domain", "set-limits", "--file", file]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailedWithReport);
    expect((err as FailedWithReport).message).toBe("4 of 6 lines failed");
    expect((err as FailedWithReport).output.split("\n")).toEqual([
      "changed\tq1.example",
      "changed\tq2.example",
      expect.stringMatching(/^failed\tnowhere\.example\tline 5: .*\(domain\) \[404\.\d+\]$/),
      expect.stringMatching(/^failed\tq3\.example\tline 6: unknown option 'colour=blue' \(account-limit=, /),
      expect.stringMatching(/^failed\tq3\.example\tline 7: .*account-limit= needs a whole number/),
      "failed\tq3.example\tline 8: no limit given (account-limit=N, capacity-limit=MB...)",
      "2 changed, 4 failed",
    ]);
    const q1 = await getDomainOrThrow(own, "q1.example");
    expect([q1.capacityLimit, q1.accountLimit]).toEqual([500000, 2000]);
    expect((await getDomainOrThrow(own, "q2.example")).sendLimit).toBe(50);
    expect(await getDomainOrThrow(own, "q3.example")).toEqual(q3);
  });

  it("takes one domain or --file, not both and not neither, and no limit options beside --file", async () => {
    fs.writeFileSync(file, "q1.example account-limit=3000\n");
    for (const argv of [
      ["domain", "set-limits", "q1.example", "--file", file],
      ["domain", "set-limits", "--account-limit", "5"],
      ["domain", "set-limits", "--file", file, "--account-limit", "5"],
    ])
      await expect(runCommand(own, argv)).rejects.toBeInstanceOf(UsageError);
    expect((await getDomainOrThrow(own, "q1.example")).accountLimit).toBe(2000);
    expect(await runCommand(own, ["domain", "set-limits", "--file", file])).toBe(
      "changed\tq1.example\n1 changed, 0 failed",
    );
    expect((await getDomainOrThrow(own, "q1.example")).accountLimit).toBe(3000);
  });
});

describe("customer set-limits --file", () => {
  // Pools for hundreds of customers after a migration: one process, a line per customer.
  let own: Db;
  let file: string;
  beforeAll(async () => {
    own = openDatabase(path.join(dir, "pools.db"));
    for (const name of ["c1.example", "c2.example", "c3.example"]) await addDomain(own, name, "Admin-pass1", {});
    file = path.join(dir, "pools.txt");
  });
  afterAll(() => own?.$client.close());
  const customerOf = async (name: string) => {
    const id = (await getDomainOrThrow(own, name)).customerId;
    return (await listCustomers(own)).find((c) => c.id === id)!;
  };

  it("pools each line's limits for the customer it names, by id or domain, and names each line that fails", async () => {
    const c2 = (await customerOf("c2.example")).id;
    const c3 = await customerOf("c3.example");
    fs.writeFileSync(
      file,
      [
        "# after the migration",
        "C1.example account-limit=10 capacity-limit=50000",
        `${c2}\talias-limit=5`,
        "nowhere.example account-limit=3",
        "99 account-limit=3",
        "c3.example account-limit=many",
        "c3.example",
      ].join("\n"),
    );
    const err = await runCommand(own, ["customer", "set-limits", "--file", file]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailedWithReport);
    expect((err as FailedWithReport).message).toBe("4 of 6 lines failed");
    const c1 = await customerOf("c1.example");
    expect((err as FailedWithReport).output.split("\n")).toEqual([
      `changed\tc1.example\t${c1.id}`,
      `changed\t${c2}\t${c2}`,
      expect.stringMatching(/^failed\tnowhere\.example\tline 4: .*nowhere\.example is not a hosted domain/),
      expect.stringMatching(/^failed\t99\tline 5: .*no customer with id 99/),
      expect.stringMatching(/^failed\tc3\.example\tline 6: .*account-limit= needs a whole number/),
      "failed\tc3.example\tline 7: no limit given (account-limit=N|none, capacity-limit=MB|none...)",
      "2 changed, 4 failed",
    ]);
    expect([c1.accountLimit, c1.capacityLimit, c1.aliasLimit]).toEqual([10, 50000, null]);
    expect((await customerOf("c2.example")).aliasLimit).toBe(5);
    expect(await customerOf("c3.example")).toEqual(c3);
  });

  it("takes none to return a limit to per-domain; one customer or --file, and no limit options beside --file", async () => {
    fs.writeFileSync(file, "c1.example capacity-limit=none\n");
    for (const argv of [
      ["customer", "set-limits", "c1.example", "--file", file],
      ["customer", "set-limits", "--account-limit", "5"],
      ["customer", "set-limits", "--file", file, "--account-limit", "5"],
    ])
      await expect(runCommand(own, argv)).rejects.toBeInstanceOf(UsageError);
    expect((await customerOf("c1.example")).capacityLimit).toBe(50000);
    const id = (await customerOf("c1.example")).id;
    expect(await runCommand(own, ["customer", "set-limits", "--file", file])).toBe(
      `changed\tc1.example\t${id}\n1 changed, 0 failed`,
    );
    expect([(await customerOf("c1.example")).capacityLimit, (await customerOf("c1.example")).accountLimit]).toEqual([
      null,
      10,
    ]);
  });
});

describe("domain set-limits --send-limit", () => {
  const D = "a.test";
  const shown = async (argv: string[]) => JSON.parse(await runCommand(db, argv)) as Record<string, unknown>;

  it("is 1000 for a new domain, shown by domain show and domain list beside the v1 record", async () => {
    const record = await shown(["domain", "show", D]);
    expect(record.send_limit).toBe("1000");
    expect(record.account_limit).toBe("1000");
    expect(await runCommand(db, ["domain", "list"])).toMatch(/^a\.test\t.*\tsend 1000\/h$/m);
    // The API's record (its fields are fixed by the specification) does not carry it.
    const { toDomainRecord } = await import("@/lib/server/resources/domains");
    expect(await toDomainRecord(db, await getDomainOrThrow(db, D))).not.toHaveProperty("send_limit");
  });

  it("sets the domain's limit alone, 0 for none, and refuses anything but a whole number from 0", async () => {
    const before = await shown(["domain", "show", D]);
    const after = await shown(["domain", "set-limits", D, "--send-limit", "250"]);
    expect(after).toEqual({ ...before, send_limit: "250" });
    expect((await getDomainOrThrow(db, D)).sendLimit).toBe(250);
    expect(await runCommand(db, ["domain", "list"])).toMatch(/^a\.test\t.*\tsend 250\/h$/m);
    expect((await shown(["domain", "set-limits", D, "--send-limit", "0"])).send_limit).toBe("0");
    expect(await runCommand(db, ["domain", "list"])).toMatch(/^a\.test\t.*\tsend unlimited\/h$/m);
    for (const bad of ["-1", "many"]) {
      await expect(runCommand(db, ["domain", "set-limits", D, `--send-limit=${bad}`])).rejects.toThrow(
        new UsageError(`domain set-limits: --send-limit needs a whole number from 0 to 2147483647, not '${bad}'`),
      );
    }
    await expect(runCommand(db, ["domain", "set-limits", D, "--send-limit=2147483648"])).rejects.toThrow(
      new UsageError("domain set-limits: --send-limit is too large: at most 2147483647, not '2147483648'"),
    );
    expect((await getDomainOrThrow(db, D)).sendLimit).toBe(0);
    await runCommand(db, ["domain", "set-limits", D, "--send-limit", "1000"]);
  });

  it("is taken by domain add", async () => {
    await runCommand(db, ["domain", "add", "sends.test", "--postmaster-password", "Admin-pass1", "--send-limit", "40"]);
    expect((await getDomainOrThrow(db, "sends.test")).sendLimit).toBe(40);
  });
});

describe("a customer's pooled limits in domain list and domain set-limits", () => {
  const add = (name: string, ...more: string[]) =>
    runCommand(db, ["domain", "add", name, "--postmaster-password", "Admin-pass1", ...more]);
  const listed = async (name: string) =>
    (await runCommand(db, ["domain", "list"])).split("\n").find((line) => line.startsWith(`${name}\t`));

  it("domain list shows the pool's usage and limit for a pooled limit, the domain's own for the others", async () => {
    await add("pool-a.test", "--capacity-limit", "3000");
    await add("pool-b.test", "--customer", "pool-a.test");
    const customer = (await getDomainOrThrow(db, "pool-a.test")).customerId!;
    await runCommand(db, [
      "customer",
      "set-limits",
      String(customer),
      "--capacity-limit",
      "5000",
      "--alias-limit",
      "7",
    ]);
    // Each postmaster has 1024 MB: the pool holds 2048 of 5000; aliases 0 of the pool's 7; accounts per domain.
    for (const name of ["pool-a.test", "pool-b.test"]) {
      expect(await listed(name)).toBe(
        `${name}\taccounts 1/1000\taliases 0/7 (customer ${customer})\tlists 0/100\t` +
          `capacity 2048/5000 MB (customer ${customer})\thost none\tsend 1000/h`,
      );
    }
    // What the API answers for the domain, which the list now agrees with.
    const record = JSON.parse(await runCommand(db, ["domain", "show", "pool-a.test"])) as Record<string, string>;
    expect([record.capacity_limit_usage, record.capacity_limit]).toEqual(["2048", "5000"]);
    // A domain of its own customer, without a pool, shows its own figures as before.
    expect(await listed("b.test")).toBe(
      "b.test\taccounts 1/1000\taliases 0/1000\tlists 0/100\tcapacity 1024/102400 MB\thost none\tsend 1000/h",
    );
  });

  it("domain set-limits refuses a pooled limit, naming the customer command, and changes nothing", async () => {
    const domain = await getDomainOrThrow(db, "pool-a.test");
    const customer = domain.customerId!;
    await expect(
      runCommand(db, ["domain", "set-limits", "pool-a.test", "--capacity-limit", "999", "--send-limit", "5"]),
    ).rejects.toThrow(
      `pool-a.test: --capacity-limit is pooled over customer ${customer}'s domains; set it with ` +
        `\`customer set-limits ${customer} --capacity-limit MB\` (or \`none\` to give each domain its own again); ` +
        "nothing was changed",
    );
    await expect(
      runCommand(db, ["domain", "set-limits", "pool-a.test", "--alias-limit", "1", "--capacity-limit", "1"]),
    ).rejects.toThrow(
      /--alias-limit, --capacity-limit are pooled .*`customer set-limits \d+ --alias-limit N --capacity-limit MB`/,
    );
    const after = await getDomainOrThrow(db, "pool-a.test");
    expect([after.capacityLimit, after.aliasLimit, after.sendLimit]).toEqual([3000, 1000, 1000]);
    // A new domain of the customer likewise gets no own figure for a pooled limit, and is not added with one.
    const add = (name: string, ...limit: string[]) =>
      runCommand(db, [
        "domain",
        "add",
        name,
        "--customer",
        String(customer),
        "--postmaster-password",
        "Admin-pass1",
        ...limit,
      ]);
    await expect(add("pool-c.test", "--capacity-limit", "10")).rejects.toThrow(
      /^pool-c\.test: --capacity-limit is pooled over customer \d+'s domains; .*nothing was added$/,
    );
    expect(await findDomain(db, "pool-c.test")).toBeUndefined();
    await add("pool-c.test", "--account-limit", "5");
    expect((await getDomainOrThrow(db, "pool-c.test")).accountLimit).toBe(5);
    await runCommand(db, ["domain", "remove", "pool-c.test", "--yes"]);
    // A limit the customer does not pool is the domain's own, and set as before.
    const set = JSON.parse(
      await runCommand(db, ["domain", "set-limits", "pool-a.test", "--account-limit", "20"]),
    ) as Record<string, string>;
    expect(set.account_limit).toBe("20");
    // Returned to per-domain, the domain's own capacity limit binds again and can be set.
    await runCommand(db, ["customer", "set-limits", String(customer), "--capacity-limit", "none"]);
    await runCommand(db, ["domain", "set-limits", "pool-a.test", "--capacity-limit", "4000"]);
    expect(await listed("pool-a.test")).toMatch(/\tcapacity 1024\/4000 MB\thost none\tsend/);
  });

  it("domain set-limits without a limit is wrong usage (exit 2), with the usage line", async () => {
    await expect(runCommand(db, ["domain", "set-limits", "pool-a.test"])).rejects.toThrow(
      new UsageError(
        "domain set-limits: give at least one limit (usage: npm run --silent cli -- domain set-limits [domain] " +
          "[--account-limit N] [--alias-limit N] [--mailinglist-limit N] [--capacity-limit MB] [--send-limit N] " +
          "[--file <file>])",
      ),
    );
  });

  it("customer set-limits without a limit is wrong usage (exit 2), with the usage line", async () => {
    await expect(runCommand(db, ["customer", "set-limits", "1"])).rejects.toThrow(
      new UsageError(
        "customer set-limits: give at least one limit (usage: npm run --silent cli -- customer set-limits " +
          "[<id>|<domain>] [--account-limit N|none] [--alias-limit N|none] [--mailinglist-limit N|none] " +
          "[--capacity-limit MB|none] [--file <file>])",
      ),
    );
  });
});

describe("demo", () => {
  it("seeds once; run again it prints a demo login's password only while it still signs in", async () => {
    const created = await runCommand(db, ["demo"]);
    expect(created).toMatch(/^Demo domain demo\.example\.com created\.$/m);
    expect(created).toContain("postmaster@demo.example.com  password: Demo-admin1");
    expect(await runCommand(db, ["demo"])).toContain("jan.nowak@demo.example.com  password: Demo-user1");

    await runCommand(db, ["account", "set-password", "jan.nowak@demo.example.com", "--password", "Other-pass2"]);
    const again = await runCommand(db, ["demo"]);
    expect(again).toMatch(/^The demo domain already exists\.$/m);
    expect(again).toContain("postmaster@demo.example.com  password: Demo-admin1");
    expect(again).toContain("jan.nowak@demo.example.com  password: (changed since the demo was seeded)");
    expect(again).not.toContain("Demo-user1");
  });
});

describe("domain names as the operator types them", () => {
  it("an internationalised or uppercase name is taken in the lowercase ASCII form DNS and Postfix use", async () => {
    const own = openDatabase(path.join(dir, "idna.db"));
    try {
      expect(await runCommand(own, ["domain", "add", "Zażółć.PL", "--postmaster-password", "Admin-pass1"])).toBe(
        "Domain xn--za-6ja4f8n1l.pl added (customer 1); log in as postmaster@xn--za-6ja4f8n1l.pl.",
      );
      expect((JSON.parse(await runCommand(own, ["domain", "show", "ZAŻÓŁĆ.pl"])) as { name: string }).name).toBe(
        "xn--za-6ja4f8n1l.pl",
      );
      const file = path.join(dir, "idna.txt");
      fs.writeFileSync(file, "Łódź.Example Admin-pass1\n");
      expect(await runCommand(own, ["domain", "import", file])).toMatch(/^added\txn--d-uga0v4h\.example\tcustomer 2\n/);
      // The same in a --file line, in an option naming a domain, and where a customer id or a domain is taken.
      const limits = path.join(dir, "idna-limits.txt");
      fs.writeFileSync(limits, "Zażółć.pl account-limit=5\n");
      expect(await runCommand(own, ["domain", "set-limits", "--file", limits])).toBe(
        "changed\txn--za-6ja4f8n1l.pl\n1 changed, 0 failed",
      );
      expect(await runCommand(own, ["audit", "list", "--domain", "ZAŻÓŁĆ.pl", "--limit", "1"])).toMatch(
        /^\S+\txn--za-6ja4f8n1l\.pl\t/,
      );
      expect(JSON.parse(await runCommand(own, ["customer", "show", "Zażółć.pl"]))).toMatchObject({ id: 1 });
      // A name that is none stays as typed, refused by the service.
      await expect(runCommand(own, ["domain", "add", "bad_name"])).rejects.toThrow("Nieprawidłowa nazwa domeny.");
    } finally {
      own.$client.close();
    }
  });
});
