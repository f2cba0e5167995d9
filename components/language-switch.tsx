"use client";
// Polish / English switch: stores the choice in the `locale` cookie (read by the root layout) and re-renders.
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { LOCALE_COOKIE, useLocale, useT, type Locale, type Messages } from "@/lib/i18n";

const messages: Messages<"label" | "switchTo"> = {
  pl: { label: "Język", switchTo: "English" },
  en: { label: "Language", switchTo: "Polski" },
};

export function LanguageSwitch({ className = "" }: { className?: string }) {
  const locale = useLocale();
  const t = useT(messages);
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const next: Locale = locale === "pl" ? "en" : "pl";
  return (
    <button
      type="button"
      aria-label={`${t("label")}: ${t("switchTo")}`}
      disabled={pending}
      onClick={() => {
        document.cookie = `${LOCALE_COOKIE}=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
        startTransition(() => router.refresh());
      }}
      className={`rounded-md px-2 py-1 text-sm font-medium text-blue-800 underline underline-offset-2 hover:text-blue-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 ${className}`}
    >
      <span lang={next}>{t("switchTo")}</span>
    </button>
  );
}
