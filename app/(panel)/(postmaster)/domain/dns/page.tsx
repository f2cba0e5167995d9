// /domain/dns: the DNS records the postmaster's domain needs, each checked live.
import { pageMetadata } from "@/lib/i18n/server";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { DnsRecords } from "./dns-records";

export const generateMetadata = () => pageMetadata("dns");

export default async function DomainDnsPage() {
  await requirePostmaster();
  return <DnsRecords />;
}
