// `domain dns-check --all`: every hosted domain checked against a real resolver (the sandbox's loopback DNS server,
// publishing what each domain's DNS page asks for), the domains that lack something named with what they lack.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { publishHostedDomains } from "@/lib/mailserver/sandbox/publish-dns";
import { readDnsRecords, startDnsServer, writeDnsRecords, type DnsServer } from "@/lib/mailserver/sandbox/dns-server";
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

/** The command's output, or its report and one-line error when it finds a domain lacking records (exit 1). */
async function dnsCheck(...args: string[]): Promise<{ ok: boolean; output: string; error?: string }> {
  try {
    return { ok: true, output: await runCommand(db, ["domain", "dns-check", ...args]) };
  } catch (err) {
    if (!(err instanceof FailedWithReport)) throw err;
    return { ok: false, output: err.output, error: err.message };
  }
}

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
