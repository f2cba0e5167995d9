// DKIM keys, records and the DNS check, against a migrated database and the sandbox's loopback DNS server.
import crypto from "node:crypto";
import dgram from "node:dgram";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import dnsPacket from "dns-packet";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import type { FailedWithReport } from "@/lib/cli/args";
import { runCommand } from "@/lib/cli/commands";
import { addDomain } from "@/lib/server/resources/new-domain";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { checkDomainDns, dkimStatus } from "@/lib/server/resources/mail-status";
import { checkDkimDns, currentDkimKey, dkimFileSync, dkimRecord, stagedDkimKey, writeDkimFiles } from "./dkim";
import { readDnsRecords, startDnsServer, writeDnsRecords, type DnsServer } from "./sandbox/dns-server";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
/**
 * A zone file's line for the record as a BIND import takes it: absolute name, and the ~410-character value in two
 * strings, as one string may hold at most 255 characters.
 */
function zoneLine(r: { name: string; value: string }): string {
  expect(r.value.length).toBeGreaterThan(255);
  expect(r.value.length).toBeLessThanOrEqual(510);
  return `${r.name}. TXT "${r.value.slice(0, 255)}" "${r.value.slice(255)}"`;
}

let dnsServer: DnsServer;
/** The sandbox's DNS server on a free port, its records file written through `txt.set`. */
let dns: { server: string; txt: { set(name: string, values: string[]): void }; close(): Promise<void> };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailadmin-dkim-"));
  db = openDatabase(path.join(dir, "mail.db"));
  const records = path.join(dir, "records.json");
  writeDnsRecords(records, {});
  dnsServer = await startDnsServer(records, 0);
  dns = {
    server: `127.0.0.1:${dnsServer.port}`,
    txt: { set: (name, values) => writeDnsRecords(records, { ...readDnsRecords(records), [name]: { TXT: values } }) },
    close: () => dnsServer.close(),
  };
  await addDomain(db, "a.test", "Admin-pass1", {});
  await addDomain(db, "b.test", "Admin-pass1", {});
});
afterAll(async () => {
  await dns.close();
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("DKIM keys", () => {
  it("domain add generates a 2048-bit key whose record carries its public key", async () => {
    const key = (await currentDkimKey(db, (await getDomainOrThrow(db, "a.test")).id))!;
    expect(key.selector).toMatch(/^mail\d{8}$/);
    const pub = crypto.createPublicKey(key.privateKey);
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(dkimRecord("a.test", key)).toEqual({
      selector: key.selector,
      name: `${key.selector}._domainkey.a.test`,
      value: `v=DKIM1; k=rsa; p=${pub.export({ type: "spki", format: "der" }).toString("base64")}`,
    });
  });

  it("rotate stages a new selector that signs only once activate finds it in DNS; the key files follow", async () => {
    const a = await getDomainOrThrow(db, "a.test");
    const before = (await currentDkimKey(db, a.id))!;
    const out = await runCommand(db, ["domain", "dkim", "rotate", "a.test"]);
    const staged = (await stagedDkimKey(db, a.id))!;
    expect(staged.selector).toBe(`${before.selector}a`);
    const record = dkimRecord("a.test", staged);
    expect(out).toBe(
      `New DKIM key, not signing yet; publish:\n${zoneLine(record)}\n` +
        "then: npm run --silent cli -- domain dkim activate a.test",
    );
    // Not signing yet: the current key and the files stay; rotating again reprints the staged key.
    expect((await currentDkimKey(db, a.id))!.selector).toBe(before.selector);
    expect(await runCommand(db, ["domain", "dkim", "rotate", "a.test"])).toContain("The staged DKIM key");
    expect((await stagedDkimKey(db, a.id))!.id).toBe(staged.id);
    const out2 = path.join(dir, "dkim");
    await writeDkimFiles(db, out2);
    const b = (await currentDkimKey(db, (await getDomainOrThrow(db, "b.test")).id))!;
    expect(fs.readFileSync(path.join(out2, "selectors.map"), "utf8")).toBe(
      `a.test ${before.selector}\nb.test ${b.selector}\n`,
    );

    // The domain's DNS report asks for the staged record too.
    process.env.DNS_RESOLVER = dns.server;
    try {
      const report = await checkDomainDns(db, a);
      expect(report.records.filter((r) => r.kind.startsWith("dkim")).map((r) => [r.kind, r.name, r.state])).toEqual([
        ["dkim", `${before.selector}._domainkey.a.test`, "missing"],
        ["dkim_next", record.name, "missing"],
      ]);
      // Activation waits for DNS: missing, then a record with another key; then the record itself.
      const activate = () => runCommand(db, ["domain", "dkim", "activate", "a.test"]);
      await expect(activate()).rejects.toMatchObject({
        output: `a.test\twaiting\t${record.name}\tDNS missing`,
        message: "1 of 1 staged DKIM keys not activated",
      });
      dns.txt.set(record.name, ["v=DKIM1; k=rsa; p=AAAA"]);
      await expect(activate()).rejects.toMatchObject({
        output: `a.test\twaiting\t${record.name}\tDNS different: v=DKIM1; k=rsa; p=AAAA`,
      });
      expect((await currentDkimKey(db, a.id))!.selector).toBe(before.selector);
      dns.txt.set(record.name, [record.value]);
      expect(await activate()).toBe(`a.test\tactivated\t${record.name}`);
      expect(await activate()).toBe("a.test\tno staged key (domain dkim rotate a.test makes one)");
    } finally {
      delete process.env.DNS_RESOLVER;
    }
    const after = (await currentDkimKey(db, a.id))!;
    expect(after.selector).toBe(staged.selector);
    expect(await stagedDkimKey(db, a.id)).toBeUndefined();
    await writeDkimFiles(db, out2);
    expect(fs.readFileSync(path.join(out2, "selectors.map"), "utf8")).toBe(
      `a.test ${after.selector}\nb.test ${b.selector}\n`,
    );
    expect(fs.readdirSync(path.join(out2, "keys")).sort()).toEqual([
      `a.test.${after.selector}.key`,
      `b.test.${b.selector}.key`,
    ]);
    expect(fs.readFileSync(path.join(out2, "keys", `a.test.${after.selector}.key`), "utf8")).toBe(after.privateKey);
    expect(await writeDkimFiles(db, out2)).toBe(0); // unchanged files are left alone
  });

  it("rotate --all stages a key for every domain at once; activate --all activates those DNS holds", async () => {
    const domains = ["a.test", "b.test"];
    const out = await runCommand(db, ["domain", "dkim", "rotate", "--all", "--concurrency", "2"]);
    const staged = await Promise.all(
      domains.map(async (d) => dkimRecord(d, (await stagedDkimKey(db, (await getDomainOrThrow(db, d)).id))!)),
    );
    // In the order the keys were stored: two at once may finish either way round.
    expect(out.split("\n").sort()).toEqual(staged.map(zoneLine).sort());
    dns.txt.set(staged[1]!.name, [staged[1]!.value]);
    process.env.DNS_RESOLVER = dns.server;
    try {
      await expect(runCommand(db, ["domain", "dkim", "activate", "--all"])).rejects.toMatchObject({
        output: `a.test\twaiting\t${staged[0]!.name}\tDNS missing\nb.test\tactivated\t${staged[1]!.name}`,
      });
      // Only the one still waiting is named; --force activates it without DNS.
      expect(await runCommand(db, ["domain", "dkim", "activate", "--all", "--force"])).toBe(
        `a.test\tactivated\t${staged[0]!.name}`,
      );
      expect(await runCommand(db, ["domain", "dkim", "activate", "--all"])).toBe("no domain has a staged DKIM key");
    } finally {
      delete process.env.DNS_RESOLVER;
    }
    for (const [i, d] of domains.entries())
      expect((await currentDkimKey(db, (await getDomainOrThrow(db, d)).id))!.selector).toBe(staged[i]!.selector);
    await expect(runCommand(db, ["domain", "dkim", "rotate"])).rejects.toThrow(
      "domain dkim rotate: name one domain, or give --all for every hosted domain",
    );
  });

  it("rotate --all prints each record as its key is stored: a run cut short has printed every key it staged", async () => {
    const printed: string[] = [];
    // The output stops after the first line, as a killed run's does.
    const cut = (line: string) => {
      printed.push(line);
      return Promise.reject(new Error("cut short"));
    };
    await expect(runCommand(db, ["domain", "dkim", "rotate", "--all", "--concurrency", "1"], cut)).rejects.toThrow(
      "cut short",
    );
    const a = (await stagedDkimKey(db, (await getDomainOrThrow(db, "a.test")).id))!;
    expect(printed).toEqual([zoneLine(dkimRecord("a.test", a))]);
    // Activated again, so the tests after this one start from signing keys only.
    await runCommand(db, ["domain", "dkim", "activate", "--all", "--force"]);
  });

  it("dns-check --all stops at once when the resolver does not answer, without asking about each domain", async () => {
    // A resolver that takes every question and answers none: each domain would wait about 9 s for it.
    const asked: string[] = [];
    const silent = dgram.createSocket("udp4");
    silent.on("message", (m) => asked.push(dnsPacket.decode(m).questions?.[0]?.name ?? ""));
    await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
    process.env.DNS_RESOLVER = `127.0.0.1:${silent.address().port}`;
    try {
      await expect(runCommand(db, ["domain", "dns-check", "--all"])).rejects.toThrow(
        /^DNS could not be asked: 127\.0\.0\.1:\d+ gave ETIMEOUT for /,
      );
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.filter((name) => /(^|\.)[ab]\.test$/.test(name))).toEqual([]);
    } finally {
      delete process.env.DNS_RESOLVER;
      silent.close();
    }
  }, 30_000);

  it("activate --all --quiet (cron) prints only what it activated, and fails only when DNS cannot be asked", async () => {
    await runCommand(db, ["domain", "dkim", "rotate", "--all"]);
    const staged = await Promise.all(
      ["a.test", "b.test"].map(async (d) =>
        dkimRecord(d, (await stagedDkimKey(db, (await getDomainOrThrow(db, d)).id))!),
      ),
    );
    const quiet = () => runCommand(db, ["domain", "dkim", "activate", "--all", "--quiet"]);
    try {
      process.env.DNS_RESOLVER = dns.server;
      // Nothing published: nothing to say, and not a failure (cron mails nothing).
      expect(await quiet()).toBe("");
      dns.txt.set(staged[0]!.name, [staged[0]!.value]);
      expect(await quiet()).toBe(`a.test\tactivated\t${staged[0]!.name}`);
      // No resolver answers: that is worth a mail, in one line however many domains wait.
      process.env.DNS_RESOLVER = "127.0.0.1:9";
      const failed = await quiet().then(
        () => undefined,
        (err: FailedWithReport) => err,
      );
      // Found before any domain is asked: one line, whatever the number of domains.
      expect(failed).toBeInstanceOf(Error);
      expect(failed?.message).toMatch(/^DNS could not be asked: 127\.0\.0\.1:9 gave ECONNREFUSED for /);
      process.env.DNS_RESOLVER = dns.server;
      dns.txt.set(staged[1]!.name, [staged[1]!.value]);
      expect(await quiet()).toBe(`b.test\tactivated\t${staged[1]!.name}`);
    } finally {
      delete process.env.DNS_RESOLVER;
    }
  });

  it("a service's passes read the keys only after a change, and in full every few passes", async () => {
    const out = path.join(dir, "dkim-sync");
    const pass = dkimFileSync(db, out, undefined, 3);
    expect(await pass()).toBeGreaterThan(0);
    expect(await pass()).toBeUndefined();
    // A file removed by hand: the passes that find the keys unchanged leave it, the third one writes it again.
    fs.rmSync(path.join(out, "selectors.map"));
    expect(await pass()).toBeUndefined();
    expect(await pass()).toBe(1);
    expect(fs.existsSync(path.join(out, "selectors.map"))).toBe(true);
    const b = await getDomainOrThrow(db, "b.test");
    const before = (await currentDkimKey(db, b.id))!;
    // A staged key changes no file; its activation does: the new key file, the old one removed, the map.
    await runCommand(db, ["domain", "dkim", "rotate", "b.test"]);
    expect(await pass()).toBe(0);
    await runCommand(db, ["domain", "dkim", "activate", "b.test", "--force"]);
    const after = (await currentDkimKey(db, b.id))!;
    expect(after.selector).not.toBe(before.selector);
    expect(await pass()).toBe(3);
    // --now: signs at once.
    expect(fs.readdirSync(path.join(out, "keys"))).toContain(`b.test.${after.selector}.key`);
    expect(fs.readdirSync(path.join(out, "keys"))).not.toContain(`b.test.${before.selector}.key`);
    // --now: signs at once.
    await runCommand(db, ["domain", "dkim", "rotate", "b.test", "--now"]);
    expect(await stagedDkimKey(db, b.id)).toBeUndefined();
    const now = (await currentDkimKey(db, b.id))!;
    expect(now.selector).not.toBe(after.selector);
    expect(await pass()).toBe(3);
    expect(fs.readdirSync(path.join(out, "keys"))).toContain(`b.test.${now.selector}.key`);
  });

  it("the DNS check says missing, published or different, as the resolver answers", async () => {
    const record = dkimRecord("b.test", (await currentDkimKey(db, (await getDomainOrThrow(db, "b.test")).id))!);
    expect((await checkDkimDns(record, dns.server)).state).toBe("missing");
    dns.txt.set(record.name, [record.value]);
    expect((await checkDkimDns(record, dns.server)).state).toBe("published");
    dns.txt.set(record.name, ["v=DKIM1; k=rsa; p=AAAA"]);
    expect(await checkDkimDns(record, dns.server)).toEqual({ state: "different", detail: "v=DKIM1; k=rsa; p=AAAA" });
  });

  it("the panel's status is the postmaster's only, with the record and the DNS state", async () => {
    const a = await getDomainOrThrow(db, "a.test");
    const postmaster: Principal = {
      account: await getAccountOrThrow(db, a, "postmaster"),
      domain: "a.test",
      isPostmaster: true,
    };
    const key = (await currentDkimKey(db, a.id))!;
    dns.txt.set(`${key.selector}._domainkey.a.test`, [dkimRecord("a.test", key).value]);
    process.env.DNS_RESOLVER = dns.server;
    try {
      expect(await dkimStatus(db, postmaster, "a.test")).toMatchObject({ selector: key.selector, dns: "published" });
      await expect(dkimStatus(db, postmaster, "b.test")).rejects.toMatchObject({ key: "forbidden" });
    } finally {
      delete process.env.DNS_RESOLVER;
    }
  });
});
