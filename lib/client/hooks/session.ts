"use client";
// The logged-in account as the backend-for-frontend knows it: the postmaster's domain comes from here.
import { useQuery } from "@tanstack/react-query";

export interface PanelSession {
  email: string;
  domain: string;
  isPostmaster: boolean;
}

export const sessionKeys = { all: ["session"] as const };

async function fetchSession(): Promise<PanelSession> {
  const res = await fetch("/api/panel/session", { credentials: "same-origin" });
  if (!res.ok) throw new Error(`session ${res.status}`);
  return (await res.json()) as PanelSession;
}

export function useSession() {
  return useQuery({ queryKey: sessionKeys.all, queryFn: fetchSession, staleTime: 5 * 60_000 });
}

/** The postmaster's domain, or undefined while the session loads. */
export function useDomainName(): string | undefined {
  return useSession().data?.domain;
}
