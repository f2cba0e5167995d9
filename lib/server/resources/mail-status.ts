import "server-only";
// What the mail server does with a domain's and an account's settings, for the postmaster's panel pages: the
// domain's DKIM record and whether DNS holds it, and the account's latest SMS notifications with their failures.
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import { checkDkimDns, currentDkimKey, dkimRecord, generateDkimKey } from "@/lib/mailserver/dkim";
import { recentSmsNotifications } from "@/lib/mailserver/sms/queue";
import { domainForAdmin } from "../caller/access";
import { getAccountOrThrow } from "./accounts";
import { listDomains } from "./domains";
import type { DkimStatus, DomainDnsReport, SmsNotification } from "@/lib/schemas/mail-status";
import { checkDnsRecords, requiredDnsRecords } from "./dns-records";
import type { Principal } from "../caller/auth";

/** The domain's DKIM TXT record (a key is made for a domain created before DKIM existed) and what DNS answers. */
export async function dkimStatus(db: Db, principal: Principal, domainName: string): Promise<DkimStatus> {
  const domain = await domainForAdmin(db, principal, domainName);
  const key = (await currentDkimKey(db, domain.id)) ?? (await generateDkimKey(db, domain));
  const record = dkimRecord(domain.name, key);
  const dns = await checkDkimDns(record);
  return { ...record, dns: dns.state, dns_detail: dns.detail };
}

/** Each record the domain needs, checked against DNS now (the CLI's `domain dns-check`, and the page's below). */
export async function checkDomainDns(db: Db, domain: Pick<DomainRow, "id" | "name">): Promise<DomainDnsReport> {
  const key = (await currentDkimKey(db, domain.id)) ?? (await generateDkimKey(db, domain));
  const records = await checkDnsRecords(requiredDnsRecords(domain.name, dkimRecord(domain.name, key)));
  return { domain: domain.name, ok: records.every((r) => r.state === "present"), records };
}

/**
 * Every hosted domain's report, by domain name, `concurrency` domains checked at once (each asks for its records
 * at once too): a provider's thousands of domains in seconds against a nearby resolver.
 */
export async function checkEveryDomainDns(db: Db, concurrency: number): Promise<DomainDnsReport[]> {
  const domains = await listDomains(db);
  const reports: DomainDnsReport[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < domains.length; i = next++) reports[i] = await checkDomainDns(db, domains[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, domains.length) }, worker));
  return reports;
}

/** The domain's DNS page (postmaster only). */
export async function domainDnsStatus(db: Db, principal: Principal, domainName: string): Promise<DomainDnsReport> {
  return checkDomainDns(db, await domainForAdmin(db, principal, domainName));
}

/** The account's last ten notifications, newest first (postmaster only: targets are other people's numbers). */
export async function smsNotifications(
  db: Db,
  principal: Principal,
  domainName: string,
  name: string,
): Promise<SmsNotification[]> {
  const domain = await domainForAdmin(db, principal, domainName);
  const account = await getAccountOrThrow(db, domain, name);
  return (await recentSmsNotifications(db, account.id)).map((r) => ({
    created_at: r.createdAt,
    number: r.slot === 2 ? 2 : 1,
    channel: r.channel,
    target: r.target,
    status: r.status,
    attempts: r.attempts,
    last_error: r.lastError,
    sent_at: r.sentAt,
  }));
}
