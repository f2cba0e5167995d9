import "server-only";
// The DNS records a hosted domain needs (MX, SPF, DKIM, DMARC, the names mail clients set themselves up from, and
// MTA-STS/TLS-RPT when the operator turns them on), built from the operator's configuration (lib/server/env.ts),
// and each one checked live against a resolver: present, missing, different (with what DNS holds) or error. The
// panel's DNS page, `domain dns-check` and `domain dkim show` all check through here (docs/onboarding.md).
import crypto from "node:crypto";
import { Resolver } from "node:dns/promises";
import type { CheckedDnsRecord, DnsRecordKind, DnsRecordType, RequiredDnsRecord } from "@/lib/schemas/mail-status";
import { dnsResolvers, env } from "../env";

/** Where mail clients connect: implicit TLS on the usual ports (993, 995, 465), STARTTLS on any other. */
export interface MailService {
  host: string;
  port: number;
  tls: "ssl" | "starttls";
}

export interface MailHosts {
  mx: string;
  web: string;
  imap: MailService;
  /** Undefined when POP3_PORT is 0. */
  pop3?: MailService;
  submission: MailService;
}

const IMPLICIT_TLS = new Set([993, 995, 465]);
export const mailService = (host: string, port: number): MailService => ({
  host,
  port,
  tls: IMPLICIT_TLS.has(port) ? "ssl" : "starttls",
});

export function mailHosts(): MailHosts {
  const e = env();
  return {
    mx: e.MAIL_HOST,
    web: e.WEB_HOST ?? e.MAIL_HOST,
    imap: mailService(e.IMAP_HOST ?? e.MAIL_HOST, e.IMAP_PORT),
    pop3: e.POP3_PORT ? mailService(e.POP3_HOST ?? e.MAIL_HOST, e.POP3_PORT) : undefined,
    submission: mailService(e.SUBMISSION_HOST ?? e.MAIL_HOST, e.SUBMISSION_PORT),
  };
}

/** The MTA-STS policy every hosted domain publishes (RFC 8461 §3.2), or undefined when MTA_STS_MODE is off. */
export function mtaStsPolicy(): string | undefined {
  const mode = env().MTA_STS_MODE;
  if (mode === "off") return undefined;
  return `version: STSv1\r\nmode: ${mode}\r\nmx: ${mailHosts().mx}\r\nmax_age: 604800\r\n`;
}

/** The policy's id: it changes exactly when the policy's text does, which is what senders re-fetch on. */
const mtaStsId = (policy: string) => crypto.createHash("sha256").update(policy).digest("hex").slice(0, 20);

/**
 * The records the domain needs, in the order the page shows them; `dkim` is the signing key's TXT record, `dkimNext`
 * a rotation's staged key's, to publish before it signs.
 */
export function requiredDnsRecords(
  domain: string,
  dkim?: { name: string; value: string },
  dkimNext?: { name: string; value: string },
): RequiredDnsRecord[] {
  const e = env();
  const h = mailHosts();
  const fill = (text: string) => text.replaceAll("{domain}", domain);
  const srv = (kind: DnsRecordKind, label: string, s: MailService): RequiredDnsRecord => ({
    kind,
    type: "SRV",
    name: `${label}._tcp.${domain}`,
    value: `0 1 ${s.port} ${s.host}`,
  });
  const records: RequiredDnsRecord[] = [
    { kind: "mx", type: "MX", name: domain, value: `10 ${h.mx}` },
    { kind: "spf", type: "TXT", name: domain, value: fill(e.SPF_RECORD) },
  ];
  if (dkim) records.push({ kind: "dkim", type: "TXT", name: dkim.name, value: dkim.value });
  if (dkimNext) records.push({ kind: "dkim_next", type: "TXT", name: dkimNext.name, value: dkimNext.value });
  records.push(
    { kind: "dmarc", type: "TXT", name: `_dmarc.${domain}`, value: fill(e.DMARC_RECORD) },
    { kind: "autoconfig", type: "CNAME", name: `autoconfig.${domain}`, value: h.web },
    { kind: "autodiscover", type: "CNAME", name: `autodiscover.${domain}`, value: h.web },
    { kind: "autodiscover_srv", type: "SRV", name: `_autodiscover._tcp.${domain}`, value: `0 1 443 ${h.web}` },
    // RFC 6186: clients that look services up by SRV.
    srv("imap_srv", h.imap.tls === "ssl" ? "_imaps" : "_imap", h.imap),
    ...(h.pop3 ? [srv("pop3_srv", h.pop3.tls === "ssl" ? "_pop3s" : "_pop3", h.pop3)] : []),
    srv("submission_srv", h.submission.tls === "ssl" ? "_submissions" : "_submission", h.submission),
  );
  const policy = mtaStsPolicy();
  if (policy) {
    records.push(
      { kind: "mta_sts", type: "TXT", name: `_mta-sts.${domain}`, value: `v=STSv1; id=${mtaStsId(policy)}` },
      { kind: "mta_sts_host", type: "CNAME", name: `mta-sts.${domain}`, value: h.web },
    );
  }
  if (e.TLSRPT_RUA)
    records.push({
      kind: "tls_rpt",
      type: "TXT",
      name: `_smtp._tls.${domain}`,
      value: `v=TLSRPTv1; rua=${e.TLSRPT_RUA}`,
    });
  return records;
}

const host = (name: string) => name.toLowerCase().replace(/\.$/, "");
/** TXT tags as a map (DKIM, DMARC, MTA-STS, TLS-RPT all use `tag=value;` lists). */
const tags = (text: string) =>
  new Map(
    text
      .split(";")
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const i = part.indexOf("=");
        return [part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).trim()] as const;
      }),
  );
/** SPF terms without their "+" qualifier, lower case. */
const spfTerms = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .slice(1)
    .map((t) => t.replace(/^\+/, ""))
    .filter(Boolean);

/** The answers of one kind that are meant for this record (other TXT records at the same name are not). */
function relevant(record: RequiredDnsRecord, found: string[]): string[] {
  const prefix = { spf: "v=spf1", dkim: "v=dkim1", dmarc: "v=dmarc1", mta_sts: "v=stsv1", tls_rpt: "v=tlsrptv1" }[
    record.kind as string
  ];
  if (!prefix) return found;
  // A DKIM record may leave out v=DKIM1 (RFC 6376 §3.6.1); any TXT at the selector's name is its record.
  if (record.kind === "dkim") return found;
  return found.filter((t) => t.trim().toLowerCase().startsWith(prefix));
}

/** Whether what DNS holds does what the required record does. */
function satisfies(record: RequiredDnsRecord, found: string[]): boolean {
  switch (record.kind) {
    case "mx": {
      const want = host(record.value.split(/\s+/)[1] ?? "");
      return found.some((v) => host(v.split(/\s+/)[1] ?? "") === want);
    }
    case "spf": {
      // Exactly one SPF record (two are a permanent error, RFC 7208 §4.5) holding every term asked for but "all".
      if (found.length !== 1) return false;
      const have = new Set(spfTerms(found[0]!));
      return spfTerms(record.value)
        .filter((t) => !/^[-~?]?all$/.test(t))
        .every((t) => have.has(t));
    }
    case "dkim":
      return found.some((v) => tags(v).get("p") === tags(record.value).get("p"));
    case "dmarc":
      return found.length === 1 && !!tags(found[0]!).get("p");
    case "mta_sts":
      return found.length === 1 && tags(found[0]!).get("id") === tags(record.value).get("id");
    case "tls_rpt":
      return found.length === 1 && tags(found[0]!).get("rua") === tags(record.value).get("rua");
    default:
      if (record.type === "CNAME") return found.some((v) => host(v) === host(record.value));
      if (record.type === "SRV") {
        const [, , port, target] = record.value.split(/\s+/);
        return found.some((v) => {
          const [, , p, t] = v.split(/\s+/);
          return p === port && host(t ?? "") === host(target ?? "");
        });
      }
      return false;
  }
}

function newResolver(servers: string[]): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return resolver;
}

/**
 * Throws unless the resolvers answer at all (any answer, NXDOMAIN too) for the mail host's own name: a resolver that
 * times out costs each domain about 9 s, so a provider's 10,000 domains would take an hour and a half to report it.
 */
export async function assertDnsAnswers(servers = dnsResolvers()): Promise<void> {
  const name = mailHosts().mx;
  try {
    await newResolver(servers).resolve4(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ETIMEOUT" || code === "ECONNREFUSED")
      throw new Error(
        `DNS could not be asked: ${servers.length ? servers.join(",") : "the system's resolver"} gave ${code} for ${name}`,
      );
  }
}

/** What DNS answers for the name and type, in the form the required records are written in; [] for none. */
async function lookup(resolver: Resolver, type: DnsRecordType, name: string): Promise<string[]> {
  try {
    switch (type) {
      case "MX":
        return (await resolver.resolveMx(name)).map((r) => `${r.priority} ${host(r.exchange)}`);
      case "TXT":
        return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
      case "CNAME":
        return (await resolver.resolveCname(name)).map(host);
      case "SRV":
        return (await resolver.resolveSrv(name)).map((r) => `${r.priority} ${r.weight} ${r.port} ${host(r.name)}`);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw err;
  }
}

/**
 * A CNAME the postmaster replaced by address records of the same host still brings clients to it: the name's
 * addresses, and whether they are the target's.
 */
async function addressesOf(
  resolver: Resolver,
  name: string,
  target: string,
): Promise<{ found: string[]; same: boolean }> {
  const addresses = async (n: string) => {
    try {
      return (await resolver.resolve4(n)).sort();
    } catch {
      return [];
    }
  };
  const [mine, theirs] = await Promise.all([addresses(name), addresses(target)]);
  return { found: mine, same: mine.length > 0 && mine.join(",") === theirs.join(",") };
}

/** Checks each record against DNS_RESOLVER's (or the given) resolvers, all at once. */
export async function checkDnsRecords(
  records: RequiredDnsRecord[],
  servers = dnsResolvers(),
): Promise<CheckedDnsRecord[]> {
  const resolver = newResolver(servers);
  return Promise.all(
    records.map(async (record): Promise<CheckedDnsRecord> => {
      try {
        const found = relevant(record, await lookup(resolver, record.type, record.name));
        if (satisfies(record, found)) return { ...record, state: "present", found };
        if (record.type === "CNAME" && !found.length) {
          const a = await addressesOf(resolver, record.name, record.value);
          if (a.found.length) return { ...record, state: a.same ? "present" : "different", found: a.found };
        }
        return { ...record, state: found.length ? "different" : "missing", found };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        return { ...record, state: "error", found: [`${code ?? ""} ${(err as Error).message}`.trim()] };
      }
    }),
  );
}
