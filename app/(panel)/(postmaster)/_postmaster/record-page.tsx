"use client";
// The editor page of one record (an account, a list): the way back to its table, the record's address as the title,
// then the record's form once loaded, or why it could not be (gone, or another failure).
import Link from "next/link";
import type { ReactNode } from "react";
import { Address, Alert, SkeletonLines } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { linkClass } from "./ui";

export type RecordPageKey = "back" | "title" | "loading" | "notFound" | "loadFailed";

export function RecordPage<T extends { email: string }>({
  back,
  name,
  domain,
  query,
  t,
  notice,
  children,
}: {
  /** The table the back link returns to. */
  back: string;
  name: string;
  domain: string | undefined;
  query: { isError: boolean; error: unknown; data?: T };
  t: (key: RecordPageKey, vars?: Record<string, string>) => string;
  /** Shown under the title (e.g. "the list was created"). */
  notice?: ReactNode;
  children: (record: T, domain: string) => ReactNode;
}) {
  const errorText = useErrorText();
  const email = query.data?.email ?? `${name}@${domain ?? "…"}`;
  const backLink = (
    <Link href={back} className={`${linkClass} text-sm`}>
      {t("back")}
    </Link>
  );
  if (query.isError) {
    const missing = query.error instanceof PanelApiError && query.error.status === 404;
    return (
      <div className="space-y-4">
        {backLink}
        <Alert tone="error">
          {missing ? t("notFound", { name }) : t("loadFailed", { error: errorText.failure(query.error) })}
        </Alert>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {backLink}
      <h1 className="text-2xl font-semibold text-gray-900">
        <Title text={t("title", { email })} email={email} />
      </h1>
      {notice}
      {query.data && domain ? children(query.data, domain) : <SkeletonLines lines={10} label={t("loading")} />}
    </div>
  );
}

/** The title with its address breakable only where Address allows (after "@" and dots), never mid-domain. */
function Title({ text, email }: { text: string; email: string }) {
  const at = text.indexOf(email);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <Address text={email} />
      {text.slice(at + email.length)}
    </>
  );
}
