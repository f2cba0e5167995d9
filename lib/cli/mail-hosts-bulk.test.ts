// Moving many domains between mail hosts (docs/mail-hosts.md, "Moving a domain"): `mailserver host accounts` of
// several domains (--domain repeated, --file) and `account set-mail-host --file`, each one process instead of one per
// domain or account. On SQLite, or on a private PostgreSQL cluster with TEST_DATABASE=postgres.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { servicesOnPrivatePgCluster, servicesOnTempSqlite } from "@/e2e/support/services-on";
import { onPostgres } from "@/e2e/support/test-database";
import type { Db } from "@/db/client";
import type * as Args from "./args";
import type * as Commands from "./commands";

vi.mock("server-only", () => ({}));

if (onPostgres()) servicesOnPrivatePgCluster();
else servicesOnTempSqlite();

let dir: string;
beforeAll(() => void (dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-bulk-hosts-"))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const REQUIRED = (hosts: string) =>
  `mail hosts are set up (${hosts}): place the new domain with --mail-host <name>, or give --mail-host none ` +
  "to leave it on no host on purpose (docs/mail-hosts.md)";

describe("domain import while the first mail host is set up", () => {
  // The rule used to be checked once, before the first line: a host set up during a long import left the rest of the
  // file's domains on no host, silently and with exit 0. Each line that adds a domain is now checked as it is added.
  it("refuses the lines added after a host appears, each as a failed line, and exits 1", async () => {
    const { runCommand } = await import("./commands");
    const { FailedWithReport } = await import("./args");
    const { findDomain } = await import("@/lib/server/resources/domains");
    const db = await (await import("@/db/client")).getReadyDb();
    const file = path.join(dir, "during.txt");
    fs.writeFileSync(file, "w1.example Admin-pass1\nw2.example Admin-pass1\nw3.example Admin-pass1\n");
    const printed: string[] = [];
    // The host is set up by another process in production; here as soon as the first domain is reported added.
    const print = async (line: string) => {
      printed.push(line);
      if (line.startsWith("added\tw1.example"))
        await runCommand(db, ["mailserver", "host", "set", "imap0", "--address", "192.0.2.9"]);
    };
    const err = await runCommand(db, ["domain", "import", file], print).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailedWithReport);
    expect((err as InstanceType<typeof FailedWithReport>).message).toBe("2 of 3 lines failed");
    expect((err as InstanceType<typeof FailedWithReport>).output).toBe("1 added, 0 already hosted, 2 failed");
    expect(printed).toEqual([
      expect.stringMatching(/^added\tw1\.example\tcustomer \d+$/) as string,
      `failed\tw2.example\tline 2: ${REQUIRED("imap0")}`,
      `failed\tw3.example\tline 3: ${REQUIRED("imap0")}`,
    ]);
    expect(await findDomain(db, "w2.example")).toBeUndefined();
    expect((await findDomain(db, "w1.example"))?.mailHost).toBeNull();
    await runCommand(db, ["mailserver", "host", "remove", "imap0"]);
  });
});

describe("mailserver host accounts of several domains, account set-mail-host --file", () => {
  // Moving many domains: one process (2.5 s to start) for every domain's list, and for placing many accounts.
  let own: Db;
  let file: string;
  let runCommand: typeof Commands.runCommand;
  let UsageError: typeof Args.UsageError;
  const accountsOn = (...args: string[]) => runCommand(own, ["mailserver", "host", "accounts", ...args]);
  const hostOf = async (email: string) => {
    const { getAccountOrThrow } = await import("@/lib/server/resources/accounts");
    const { getDomainOrThrow } = await import("@/lib/server/resources/domains");
    const [name, domain] = email.split("@") as [string, string];
    return (await getAccountOrThrow(own, await getDomainOrThrow(own, domain), name)).mailHost;
  };
  beforeAll(async () => {
    own = await (await import("@/db/client")).getReadyDb();
    ({ runCommand } = await import("./commands"));
    ({ UsageError } = await import("./args"));
    const { addDomain } = await import("@/lib/server/resources/new-domain");
    const { createAccount } = await import("@/lib/server/resources/accounts");
    const { getDomainOrThrow } = await import("@/lib/server/resources/domains");
    for (const host of ["imap1", "imap2"])
      await runCommand(own, ["mailserver", "host", "set", host, "--address", "192.0.2.9"]);
    for (const d of ["m1.example", "m2.example", "m3.example"]) {
      await addDomain(own, d, "Admin-pass1", {}, undefined, { mailHost: "imap2" });
      const domain = await getDomainOrThrow(own, d);
      for (const name of ["ala", "zenon"]) await createAccount(own, domain, name, { password: "Konto-pass1" });
    }
    await runCommand(own, ["account", "set-mail-host", "zenon@m2.example", "--mail-host", "imap1"]);
    file = path.join(dir, "bulk-hosts.txt");
  });

  it("host accounts takes --domain repeated and --file, printing the lines one command per domain prints", async () => {
    const one = async (d: string, ...more: string[]) => (await accountsOn("imap2", "--domain", d, ...more)).split("\n");
    const each = [...(await one("m3.example")), ...(await one("m1.example")), ...(await one("m2.example"))];
    expect(each).toEqual([
      "ala@m3.example",
      "postmaster@m3.example",
      "zenon@m3.example",
      "ala@m1.example",
      "postmaster@m1.example",
      "zenon@m1.example",
      "ala@m2.example",
      "postmaster@m2.example",
    ]);
    const repeated = ["--domain", "m3.example", "--domain", "M1.example", "--domain", "m2.example"];
    expect((await accountsOn("imap2", ...repeated)).split("\n")).toEqual(each);
    fs.writeFileSync(file, "# the domains to move\nm3.example\n\nm1.example\n");
    expect((await accountsOn("imap2", "--file", file, "--domain", "m2.example")).split("\n")).toEqual([
      ...(await one("m2.example")),
      ...(await one("m3.example")),
      ...(await one("m1.example")),
    ]);
    expect(await accountsOn("imap2", "--file", file, "--by-domain")).toBe(
      [...(await one("m3.example", "--by-domain")), ...(await one("m1.example", "--by-domain"))].join("\n"),
    );
    expect(await accountsOn("imap1", ...repeated)).toBe("zenon@m2.example");
    // A name not hosted is named, with nothing printed: a move's doveadm -F would miss its accounts.
    fs.writeFileSync(file, "m1.example\nnowhere.example\n");
    await expect(accountsOn("imap2", "--file", file)).rejects.toThrow("1 of 2 domains not hosted: nowhere.example");
    await expect(accountsOn("imap2", "--domain", "m1.example", "--domain", "gone.example")).rejects.toThrow(
      "1 of 2 domains not hosted: gone.example",
    );
  });

  it("account set-mail-host --file places every account of the file in one go, or none, naming what is wrong", async () => {
    fs.writeFileSync(file, "# to imap1\nALA@m1.example\n\nala@m3.example\n");
    expect(await runCommand(own, ["account", "set-mail-host", "--file", file, "--mail-host", "imap1"])).toBe(
      "2 accounts: mailboxes on imap1",
    );
    expect([await hostOf("ala@m1.example"), await hostOf("ala@m3.example"), await hostOf("ala@m2.example")]).toEqual([
      "imap1",
      "imap1",
      null,
    ]);
    fs.writeFileSync(file, "ala@m2.example\nnobody@m2.example\nala@m1.example\n");
    await expect(
      runCommand(own, ["account", "set-mail-host", "--file", file, "--mail-host", "domain"]),
    ).rejects.toThrow("1 of 3 accounts not hosted, none placed: nobody@m2.example");
    expect(await hostOf("ala@m1.example")).toBe("imap1");
    fs.writeFileSync(file, "ala@m2.example\n");
    await expect(runCommand(own, ["account", "set-mail-host", "--file", file, "--mail-host", "imap9"])).rejects.toThrow(
      /no mail host imap9/,
    );
    expect(await hostOf("ala@m2.example")).toBeNull();
    fs.writeFileSync(file, "ala@m1.example\nala@m3.example\n");
    expect(await runCommand(own, ["account", "set-mail-host", "--file", file, "--mail-host", "domain"])).toBe(
      "2 accounts: mailboxes on their domains' hosts",
    );
    expect(await hostOf("ala@m1.example")).toBeNull();
    fs.writeFileSync(file, "ala@m1.example\n");
    expect(await runCommand(own, ["account", "set-mail-host", "--file", file, "--mail-host", "imap1"])).toBe(
      "1 account: mailboxes on imap1",
    );
  });

  it("account set-mail-host takes one account or --file, not both and not neither", async () => {
    const refused = async (argv: string[]) => {
      const err = await runCommand(own, argv).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    };
    expect(
      await refused(["account", "set-mail-host", "ala@m1.example", "--file", file, "--mail-host", "imap2"]),
    ).toMatch(/one account or --file/);
    expect(await refused(["account", "set-mail-host", "--mail-host", "imap2"])).toMatch(/one account or --file/);
    expect(await refused(["account", "set-mail-host", "--file", file, "--mail-host", "none"])).toMatch(
      /`domain` returns the account to its domain's host/,
    );
  });
});

describe("domain add and domain import --mail-host on this engine", () => {
  // domains.test.ts has the whole rule on SQLite; here the placement in addDomain's transaction and the refusal on
  // the engine TEST_DATABASE names.
  it("places the new domains on the host given, and refuses without --mail-host once hosts are set up", async () => {
    const { runCommand } = await import("./commands");
    const { findDomain } = await import("@/lib/server/resources/domains");
    const db = await (await import("@/db/client")).getReadyDb();
    const refusal = REQUIRED("imap1, imap2");
    await expect(
      runCommand(db, ["domain", "add", "n1.example", "--postmaster-password", "Admin-pass1"]),
    ).rejects.toThrow(refusal);
    expect(
      await runCommand(db, [
        "domain",
        "add",
        "n1.example",
        "--postmaster-password",
        "Admin-pass1",
        "--mail-host",
        "imap1",
      ]),
    ).toMatch(/^Domain n1\.example added \(customer \d+, mailboxes on imap1\);/);
    const file = path.join(dir, "new-domains.txt");
    fs.writeFileSync(file, "n2.example Admin-pass1\nn3.example Admin-pass1\n");
    await expect(runCommand(db, ["domain", "import", file])).rejects.toThrow("2 of 2 lines failed");
    await expect(runCommand(db, ["domain", "import", file, "--mail-host", "imap9"])).rejects.toThrow(
      "no mail host imap9 (add it: mailserver host set imap9 --address <address>)",
    );
    expect(await findDomain(db, "n2.example")).toBeUndefined();
    await runCommand(db, ["domain", "import", file, "--mail-host", "imap2"]);
    expect(
      await Promise.all(
        ["n1.example", "n2.example", "n3.example"].map(async (d) => (await findDomain(db, d))?.mailHost),
      ),
    ).toEqual(["imap1", "imap2", "imap2"]);
  });

  it("domain import without --mail-host: the lines already hosted are reported, only a line that adds one is refused", async () => {
    // docs/migration.md's step 1 run again once hosts exist used to fail before reading the file, every domain hosted.
    const { runCommand } = await import("./commands");
    const { FailedWithReport } = await import("./args");
    const { findDomain } = await import("@/lib/server/resources/domains");
    const db = await (await import("@/db/client")).getReadyDb();
    const file = path.join(dir, "again.txt");
    fs.writeFileSync(file, "n2.example Admin-pass1\nn3.example -\n");
    expect(await runCommand(db, ["domain", "import", file])).toBe(
      "exists\tn2.example\nexists\tn3.example\n0 added, 2 already hosted, 0 failed",
    );
    fs.writeFileSync(file, "n2.example Admin-pass1\nn4.example Admin-pass1\n");
    const err = await runCommand(db, ["domain", "import", file]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FailedWithReport);
    expect((err as InstanceType<typeof FailedWithReport>).output).toBe(
      `exists\tn2.example\nfailed\tn4.example\tline 2: ${REQUIRED("imap1, imap2")}\n0 added, 1 already hosted, 1 failed`,
    );
    expect(await findDomain(db, "n4.example")).toBeUndefined();
  });
});
