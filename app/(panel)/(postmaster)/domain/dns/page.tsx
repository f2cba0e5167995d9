// /domain/dns: the DNS records the postmaster's domain needs, each checked live.
import type { Metadata } from "next";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { DnsRecords } from "./dns-records";

export const metadata: Metadata = { title: "Rekordy DNS domeny" };

export default async function DomainDnsPage() {
  await requirePostmaster();
  return <DnsRecords />;
}
