"use client";
// Client-side context of every page: the locale and react-query. A 401 from the BFF means the session ended
// (expired, logged out elsewhere, password changed): any query or mutation that meets one sends the user to the
// login page with a notice instead of showing a broken page.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { PanelApiError, retryRule } from "@/lib/client/api";
import { LocaleProvider, type Locale } from "@/lib/i18n";

function onApiError(error: unknown) {
  if (error instanceof PanelApiError && error.status === 401 && window.location.pathname !== "/login") {
    window.location.assign("/login?reason=expired");
  }
}

export function Providers({ locale, children }: { locale: Locale; children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: onApiError }),
        mutationCache: new MutationCache({ onError: onApiError }),
        defaultOptions: { queries: { retry: retryRule, staleTime: 30_000, refetchOnWindowFocus: false } },
      }),
  );
  return (
    <LocaleProvider locale={locale}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </LocaleProvider>
  );
}
