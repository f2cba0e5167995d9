// `mailserver sandbox --publish-dns`: the records every hosted domain needs (the DNS page's list, with the
// signing DKIM key and a rotation's staged one) written into the sandbox's DNS file, as a postmaster would publish them, so the DNS checks
// see a real resolver answer. The operator's host names point at 127.0.0.1. Entries already in the file for other
// names stay; a test removes one afterwards to see it missing.
import type { Db } from "@/db/client";
import { currentDkimKey, dkimRecord, stagedDkimKey } from "../dkim";
import { listDomains } from "@/lib/server/resources/domains";
import { mailHosts, requiredDnsRecords } from "@/lib/server/resources/dns-records";
import { readDnsRecords, writeDnsRecords, type DnsRecords } from "./dns-server";

export async function publishHostedDomains(db: Db, file: string): Promise<number> {
  const records: DnsRecords = readDnsRecords(file);
  const add = (name: string, type: keyof DnsRecords[string], value: string) => {
    const entry = (records[name] ??= {});
    const values = (entry[type] ??= []);
    if (!values.includes(value)) values.push(value);
  };
  const h = mailHosts();
  for (const name of new Set([h.mx, h.web, h.imap.host, h.submission.host, ...(h.pop3 ? [h.pop3.host] : [])]))
    add(name, "A", "127.0.0.1");
  let count = 0;
  for (const domain of await listDomains(db)) {
    const key = await currentDkimKey(db, domain.id);
    const staged = await stagedDkimKey(db, domain.id);
    const dkim = (k: typeof key) => k && dkimRecord(domain.name, k);
    for (const r of requiredDnsRecords(domain.name, dkim(key), dkim(staged))) {
      add(r.name, r.type, r.value);
      count++;
    }
  }
  writeDnsRecords(file, records);
  return count;
}
