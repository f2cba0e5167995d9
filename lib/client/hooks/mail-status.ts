"use client";
// The mail server's side of the postmaster's pages (/api/panel/mail/...): the domain's DKIM record and its state
// in DNS, every DNS record the domain needs with its state, and an account's latest SMS notifications.
import { useQuery } from "@tanstack/react-query";
import { panelRequestText, retryRule } from "@/lib/client/api";
import type { DkimStatus, DomainDnsReport, SmsNotification } from "@/lib/schemas/mail-status";

export type { CheckedDnsRecord, DnsState, SmsNotification } from "@/lib/schemas/mail-status";

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
