"use client";
// The mail server's side of the postmaster's pages (/api/panel/mail/...): the domain's DKIM record and its state
// in DNS, every DNS record the domain needs with its state, and an account's latest SMS notifications.
import { useQuery } from "@tanstack/react-query";
import { panelRequestText, retryRule } from "@/lib/client/api";

export interface DkimStatus {
  selector: string;
  name: string;
  value: string;
  dns: "published" | "different" | "missing" | "error";
  dns_detail: string;
}

export type DnsState = "present" | "missing" | "different" | "error";

export interface CheckedDnsRecord {
  kind: string;
  type: "MX" | "TXT" | "CNAME" | "SRV";
  name: string;
  value: string;
  state: DnsState;
  found: string[];
}

export interface DomainDnsReport {
  domain: string;
  ok: boolean;
  records: CheckedDnsRecord[];
}

export interface SmsNotification {
  created_at: string;
  number: 1 | 2;
  channel: string;
  target: string;
  /** pending, sent, failed or skipped. */
  status: string;
  attempts: number;
  last_error: string;
  sent_at: string;
}

async function getJson<T>(path: string): Promise<T> {
  return JSON.parse(await panelRequestText(`/api/panel/mail/${path}`)) as T;
}

export const mailStatusKeys = {
  all: ["mail-status"] as const,
  dkim: (domain: string) => [...mailStatusKeys.all, "dkim", domain] as const,
  dns: (domain: string) => [...mailStatusKeys.all, "dns", domain] as const,
  sms: (domain: string, name: string) => [...mailStatusKeys.all, "sms", domain, name] as const,
};

export function useDkimStatus(domain: string | undefined) {
  return useQuery({
    queryKey: mailStatusKeys.dkim(domain ?? ""),
    queryFn: () => getJson<DkimStatus>(`dkim/${domain}`),
    enabled: !!domain,
    retry: retryRule,
  });
}

export function useDomainDns(domain: string | undefined) {
  return useQuery({
    queryKey: mailStatusKeys.dns(domain ?? ""),
    queryFn: () => getJson<DomainDnsReport>(`dns/${domain}`),
    enabled: !!domain,
    retry: retryRule,
  });
}

export function useSmsNotifications(domain: string | undefined, name: string) {
  return useQuery({
    queryKey: mailStatusKeys.sms(domain ?? "", name),
    queryFn: () => getJson<SmsNotification[]>(`sms/${domain}/${encodeURIComponent(name)}`),
    enabled: !!domain,
    retry: retryRule,
  });
}
