// /domain/dns: the DNS records the postmaster's domain needs, each checked live.
import type { Metadata } from "next";
import { DnsRecords } from "./dns-records";

export const metadata: Metadata = { title: "Rekordy DNS domeny" };

export default function DomainDnsPage() {
  return <DnsRecords />;
}
