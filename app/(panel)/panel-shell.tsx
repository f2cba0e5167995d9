"use client";
// Header, navigation (the postmaster's five sections, or just "My account"), the signed-in address, the language
// switch and logout. Seeds the session query so pages that ask for it (lib/client/hooks/session.ts) need no fetch.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Address } from "@/components/address";
import { LanguageSwitch } from "@/components/language-switch";
import { sessionKeys, type PanelSession } from "@/lib/client/hooks/session";
import { useT, type Messages } from "@/lib/i18n";
import { PANEL_NAME } from "@/lib/i18n/page-titles";

const messages: Messages<
  | "product"
  | "nav"
  | "domain"
  | "accounts"
  | "aliases"
  | "lists"
  | "audit"
  | "me"
  | "signedInAs"
  | "logout"
  | "loggingOut"
  | "skip"
> = {
  pl: {
    product: PANEL_NAME.pl.name,
    nav: "Nawigacja główna",
    domain: "Domena",
    accounts: "Konta",
    aliases: "Aliasy",
    lists: "Listy",
    audit: "Dziennik",
    me: "Moje konto",
    signedInAs: "Zalogowano jako",
    logout: "Wyloguj",
    loggingOut: "Wylogowywanie…",
    skip: "Przejdź do treści",
  },
  en: {
    product: PANEL_NAME.en.name,
    nav: "Main navigation",
    domain: "Domain",
    accounts: "Accounts",
    aliases: "Aliases",
    lists: "Lists",
    audit: "Audit log",
    me: "My account",
    signedInAs: "Signed in as",
    logout: "Log out",
    loggingOut: "Logging out…",
    skip: "Skip to content",
  },
};

type NavKey = "domain" | "accounts" | "aliases" | "lists" | "audit" | "me";
const POSTMASTER_NAV: [NavKey, string][] = [
  ["domain", "/domain"],
  ["accounts", "/accounts"],
  ["aliases", "/aliases"],
  ["lists", "/lists"],
  ["audit", "/audit"],
  ["me", "/me"],
];
const USER_NAV: [NavKey, string][] = [["me", "/me"]];
/** Table pages use the screen's width (up to 1536 px): their columns need it more than forms need short lines. */
const WIDE_PAGES = ["/accounts", "/aliases", "/lists", "/audit"];

export function PanelShell({ session, children }: { session: PanelSession; children: ReactNode }) {
  const t = useT(messages);
  const pathname = usePathname();
  const queryClient = useQueryClient();
  useState(() => queryClient.setQueryData(sessionKeys.all, session));
  const [leaving, setLeaving] = useState(false);
  const router = useRouter();
  // The navigation's pages are prefetched when the pointer or focus shows intent, not all at once when they come
  // into view: on a first load those five prefetches (and their processing) fell into the page's busiest second
  // on a phone, as Lighthouse's long tasks showed.
  const intent = (href: string) => () => router.prefetch(href);

  const nav = session.isPostmaster ? POSTMASTER_NAV : USER_NAV;
  const width = WIDE_PAGES.includes(pathname) ? "max-w-[96rem]" : "max-w-6xl";
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        {t("skip")}
      </a>
      <header className="border-b border-gray-300 bg-white">
        <div className={`mx-auto flex ${width} flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3`}>
          <Link href={session.isPostmaster ? "/accounts" : "/me"} className="text-lg font-semibold text-gray-900">
            {t("product")}
          </Link>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="text-gray-700">
              <span className="sr-only">{t("signedInAs")} </span>
              <Address text={session.email} />
            </span>
            <LanguageSwitch />
            {/* A plain form: logging out works even before the page's JavaScript has loaded. */}
            <form method="post" action="/api/panel/session/logout" onSubmit={() => setLeaving(true)}>
              <button
                type="submit"
                aria-disabled={leaving || undefined}
                className="rounded-md border border-gray-400 px-3 py-1 font-medium text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
              >
                {leaving ? t("loggingOut") : t("logout")}
              </button>
            </form>
          </div>
        </div>
        <nav aria-label={t("nav")} className={`mx-auto ${width} px-4`}>
          <ul className="flex flex-wrap gap-x-1">
            {nav.map(([key, href]) => {
              const current = pathname === href || pathname.startsWith(`${href}/`);
              return (
                <li key={href}>
                  <Link
                    href={href}
                    prefetch={false}
                    onMouseEnter={intent(href)}
                    onTouchStart={intent(href)}
                    onFocus={intent(href)}
                    aria-current={current ? "page" : undefined}
                    className={`inline-block whitespace-nowrap border-b-2 px-2 py-2 text-sm sm:px-3 font-medium focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-700 ${
                      current ? "border-blue-700 text-blue-800" : "border-transparent text-gray-700 hover:text-gray-900"
                    }`}
                  >
                    {t(key)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
      </header>
      <main id="main" className={`mx-auto ${width} px-4 py-6`}>
        {children}
      </main>
    </div>
  );
}
