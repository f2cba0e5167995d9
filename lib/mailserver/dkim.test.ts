// DKIM keys, records and the DNS check, against a migrated database and the sandbox's loopback DNS server.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { runCommand } from "@/lib/cli/commands";
import { addDomain } from "@/lib/server/resources/new-domain";
import { getAccountOrThrow } from "@/lib/server/resources/accounts";
import type { Principal } from "@/lib/server/caller/auth";
import { getDomainOrThrow } from "@/lib/server/resources/domains";
import { dkimStatus } from "@/lib/server/resources/mail-status";
import { checkDkimDns, currentDkimKey, dkimFileSync, dkimRecord, writeDkimFiles } from "./dkim";
import { readDnsRecords, startDnsServer, writeDnsRecords, type DnsServer } from "./sandbox/dns-server";

vi.mock("server-only", () => ({}));

let dir: string;
let db: Db;
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

  it("rotate makes a new selector that signs from then on; the key files follow", async () => {
    const before = (await currentDkimKey(db, (await getDomainOrThrow(db, "a.test")).id))!;
    await runCommand(db, ["domain", "dkim", "rotate", "a.test"]);
    const after = (await currentDkimKey(db, (await getDomainOrThrow(db, "a.test")).id))!;
    expect(after.selector).toBe(`${before.selector}a`);
    const out = path.join(dir, "dkim");
    await writeDkimFiles(db, out);
    const b = (await currentDkimKey(db, (await getDomainOrThrow(db, "b.test")).id))!;
    expect(fs.readFileSync(path.join(out, "selectors.map"), "utf8")).toBe(
      `a.test ${after.selector}\nb.test ${b.selector}\n`,
    );
    expect(fs.readdirSync(path.join(out, "keys")).sort()).toEqual([
      `a.test.${after.selector}.key`,
      `b.test.${b.selector}.key`,
    ]);
    expect(fs.readFileSync(path.join(out, "keys", `a.test.${after.selector}.key`), "utf8")).toBe(after.privateKey);
    expect(await writeDkimFiles(db, out)).toBe(0); // unchanged files are left alone
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
    const before = (await currentDkimKey(db, (await getDomainOrThrow(db, "b.test")).id))!;
    await runCommand(db, ["domain", "dkim", "rotate", "b.test"]);
    const after = (await currentDkimKey(db, (await getDomainOrThrow(db, "b.test")).id))!;
    // The new key file, the old one removed, the map.
    expect(await pass()).toBe(3);
    expect(fs.readdirSync(path.join(out, "keys"))).toContain(`b.test.${after.selector}.key`);
    expect(fs.readdirSync(path.join(out, "keys"))).not.toContain(`b.test.${before.selector}.key`);
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
