import "server-only";
// What the mail server does with a domain's and an account's settings, for the postmaster's panel pages: the
// domain's DKIM record and whether DNS holds it, and the account's latest SMS notifications with their failures.
import type { Db } from "@/db/client";
import type { DomainRow } from "@/db/schema";
import {
  activateDkimKey,
  checkDkimDns,
  currentDkimKey,
  dkimRecord,
  generateDkimKey,
  stagedDkimKey,
  type DkimRecord,
} from "@/lib/mailserver/dkim";
import { recentSmsNotifications } from "@/lib/mailserver/sms/queue";
import { domainForAdmin } from "../caller/access";
import { getAccountOrThrow } from "./accounts";
import { listDomains } from "./domains";
import type { DkimStatus, DomainDnsReport, SmsNotification } from "@/lib/schemas/mail-status";
import { assertDnsAnswers, checkDnsRecords, requiredDnsRecords } from "./dns-records";
import type { Principal } from "../caller/auth";

/** The domain's DKIM TXT record (a key is made for a domain created before DKIM existed) and what DNS answers. */
export async function dkimStatus(db: Db, principal: Principal, domainName: string): Promise<DkimStatus> {
  const domain = await domainForAdmin(db, principal, domainName);
  const key = (await currentDkimKey(db, domain.id)) ?? (await generateDkimKey(db, domain));
  const record = dkimRecord(domain.name, key);
  const dns = await checkDkimDns(record);
  return { ...record, dns: dns.state, dns_detail: dns.detail };
}

/**
 * Each record the domain needs, checked against DNS now (the CLI's `domain dns-check`, and the page's below); a
 * rotation's staged key is one of them until it signs.
 */
export async function checkDomainDns(db: Db, domain: Pick<DomainRow, "id" | "name">): Promise<DomainDnsReport> {
  const key = (await currentDkimKey(db, domain.id)) ?? (await generateDkimKey(db, domain));
  const staged = await stagedDkimKey(db, domain.id);
  const records = await checkDnsRecords(
    requiredDnsRecords(domain.name, dkimRecord(domain.name, key), staged && dkimRecord(domain.name, staged)),
  );
  return { domain: domain.name, ok: records.every((r) => r.state === "present"), records };
}

/**
 * `fn` of every hosted domain, in domain name order, `concurrency` domains at once: a provider's thousands of
 * domains checked in seconds against a nearby resolver, or given new keys on every core.
 */
export async function forEveryDomain<R>(
  db: Db,
  concurrency: number,
  fn: (domain: DomainRow) => Promise<R>,
): Promise<R[]> {
  const domains = await listDomains(db);
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < domains.length; i = next++) results[i] = await fn(domains[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, domains.length) }, worker));
  return results;
}

/** forEveryDomain for a run that asks DNS about each domain: it stops at once when the resolver does not answer. */
export async function forEveryDomainAskingDns<R>(
  db: Db,
  concurrency: number,
  fn: (domain: DomainRow) => Promise<R>,
): Promise<R[]> {
  await assertDnsAnswers();
  return forEveryDomain(db, concurrency, fn);
}

/** Every hosted domain's DNS report (each domain asks for its records at once too). */
export const checkEveryDomainDns = (db: Db, concurrency: number) =>
  forEveryDomainAskingDns(db, concurrency, (domain) => checkDomainDns(db, domain));

export interface DkimRotation {
  domain: string;
  record: DkimRecord;
  /** "staged": a new key, signing once activated; "already staged": the earlier rotation's key, not activated yet;
   * "signing": a new key signing at once (`now`). */
  key: "staged" | "already staged" | "signing";
}

/**
 * A DKIM rotation (`domain dkim rotate`): a new key under a new selector, staged until `activateDkim` finds its record
 * in DNS; a domain with a staged key keeps it (rotating twice before publishing would otherwise lose the first
 * record). `now`: the new key signs at once, for a domain whose mail nobody checks yet.
 */
export async function rotateDkim(db: Db, domain: DomainRow, now = false): Promise<DkimRotation> {
  const staged = now ? undefined : await stagedDkimKey(db, domain.id);
  if (staged) return { domain: domain.name, record: dkimRecord(domain.name, staged), key: "already staged" };
  const key = await generateDkimKey(db, domain, undefined, undefined, !now);
  return { domain: domain.name, record: dkimRecord(domain.name, key), key: now ? "signing" : "staged" };
}

export interface DkimActivation {
  domain: string;
  /** "none": no staged key; "waiting": DNS does not hold its record yet (`dns` says what it answered). */
  state: "activated" | "waiting" | "none";
  record?: DkimRecord;
  dns?: string;
}

/** The staged key signs from now on once DNS holds its record (`force`: without asking DNS). */
export async function activateDkim(db: Db, domain: DomainRow, force = false): Promise<DkimActivation> {
  const staged = await stagedDkimKey(db, domain.id);
  if (!staged) return { domain: domain.name, state: "none" };
  const record = dkimRecord(domain.name, staged);
  if (!force) {
    const dns = await checkDkimDns(record);
    if (dns.state !== "published")
      return {
        domain: domain.name,
        state: "waiting",
        record,
        dns: `${dns.state}${dns.detail ? `: ${dns.detail}` : ""}`,
      };
  }
  await activateDkimKey(db, staged);
  return { domain: domain.name, state: "activated", record };
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
