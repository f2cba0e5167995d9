"use client";
// The postmaster's domain record: settings, anti-spam, limits and their usage.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { panelFetch, retryRule } from "@/lib/client/api";

import type { DomainRecord } from "@/lib/schemas/domain";

export type { DomainRecord };

export const domainKeys = {
  all: ["domain"] as const,
  detail: (domain: string) => [...domainKeys.all, "detail", domain] as const,
};

export function useDomain(domain: string | undefined) {
  return useQuery({
    queryKey: domainKeys.detail(domain ?? ""),
    queryFn: () => panelFetch<DomainRecord>(`domains/${domain}`),
    enabled: !!domain,
    retry: retryRule,
  });
}

export function useUpdateDomain(domain: string | undefined) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      panelFetch<DomainRecord>(`domains/${domain}`, { method: "PUT", body }),
    onSuccess: (record) => {
      qc.setQueryData(domainKeys.detail(domain ?? ""), record);
      return qc.invalidateQueries({ queryKey: domainKeys.all });
    },
  });
}
