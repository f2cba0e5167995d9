"use client";
// The domain's DNS page: every record the domain needs, with its state in DNS now, the value to copy, and what DNS
// holds when it differs (lib/server/resources/dns-records.ts decides all of it).
import Link from "next/link";
import { useState } from "react";
import { Alert, Button, SkeletonLines } from "@/components";
import { useDomainDns, type CheckedDnsRecord, type DnsState } from "@/lib/client/hooks/mail-status";
import { useDomainName } from "@/lib/client/hooks/session";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT } from "@/lib/i18n";
import { LoadFailedAlert, PageHeader } from "../../_postmaster/page-parts";
import { dnsMessages } from "./messages";

type T = ReturnType<typeof useT<keyof (typeof dnsMessages)["pl"]>>;

const BADGE: Record<DnsState, string> = {
  present: "border-green-700 bg-green-50 text-green-900",
  missing: "border-red-700 bg-red-50 text-red-900",
  different: "border-amber-700 bg-amber-50 text-amber-950",
  error: "border-gray-600 bg-gray-100 text-gray-900",
};

export function DnsRecords() {
  const t = useT(dnsMessages);
  const errorText = useErrorText();
  const domain = useDomainName();
  const report = useDomainDns(domain);
  const [announcement, setAnnouncement] = useState("");
  const copy = async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setAnnouncement(t("copied", { what }));
    } catch {
      setAnnouncement(t("copyFailed"));
    }
  };
  const bad = report.data?.records.filter((r) => r.state !== "present").length ?? 0;
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />
      <p className="text-sm">
        <Link href="/domain" className="text-blue-800 underline underline-offset-2">
          {t("back")}
        </Link>
      </p>
      {report.isError && (
        <LoadFailedAlert
          text={t("loadFailed", { error: errorText.failure(report.error) })}
          retryLabel={t("retry")}
          onRetry={() => void report.refetch()}
        />
      )}
      {report.data ? (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <Alert tone={report.data.ok ? "success" : "warning"} className="grow">
              {report.data.ok
                ? t("allPresent", { count: report.data.records.length })
                : t("notAll", { bad, count: report.data.records.length })}
            </Alert>
            <Button variant="secondary" loading={report.isFetching} onClick={() => void report.refetch()}>
              {t("recheck")}
            </Button>
          </div>
          <section aria-label={t("records")}>
            <ul className="space-y-3">
              {report.data.records.map((r) => (
                <RecordItem key={`${r.kind} ${r.name}`} record={r} t={t} onCopy={copy} />
              ))}
            </ul>
          </section>
          <p role="status" className="sr-only">
            {announcement}
          </p>
        </>
      ) : (
        !report.isError && <SkeletonLines lines={8} label={t("loading")} />
      )}
    </div>
  );
}

function RecordItem({
  record: r,
  t,
  onCopy,
}: {
  record: CheckedDnsRecord;
  t: T;
  onCopy: (text: string, what: string) => Promise<void>;
}) {
  const label = t(`kind_${r.kind}` as Parameters<T>[0]);
  return (
    <li
      className="rounded-lg border border-gray-300 bg-white p-4 shadow-sm"
      data-testid={`dns-${r.kind}`}
      data-state={r.state}
    >
      {/* The state stays at the card's top right whatever the title's length (it wrapped under long ones only). */}
      <div className="mb-2 flex items-start justify-between gap-2">
        <h2 className="min-w-0 text-base font-semibold text-gray-900">
          {label} <span className="font-mono text-sm font-normal text-gray-700">{r.type}</span>
        </h2>
        <span className={`shrink-0 rounded-full border px-2 py-0.5 text-sm font-medium ${BADGE[r.state]}`}>
          {t(r.state)}
        </span>
      </div>
      {/* Name beside value from 1024 px: ten records fit about twice as many to a screen. */}
      <dl className="grid gap-2 text-sm lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-x-4">
        <Copyable
          term={t("name")}
          text={r.name}
          copyLabel={t("copyName", { label })}
          onCopy={() => onCopy(r.name, r.name)}
        />
        <Copyable
          term={t("value")}
          text={r.value}
          copyLabel={t("copyValue", { label })}
          onCopy={() => onCopy(r.value, `${label}, ${t("value").toLowerCase()}`)}
        />
        {r.state !== "present" && r.found.length > 0 && (
          <div className="lg:col-span-2">
            <dt className="font-semibold">{t("found")}</dt>
            {r.found.map((f) => (
              <dd key={f} className="wrap-anywhere font-mono text-amber-950">
                {f}
              </dd>
            ))}
          </div>
        )}
      </dl>
    </li>
  );
}

function Copyable({
  term,
  text,
  copyLabel,
  onCopy,
}: {
  term: string;
  text: string;
  copyLabel: string;
  onCopy: () => Promise<void>;
}) {
  return (
    <div>
      <dt className="font-semibold">{term}</dt>
      <dd className="flex items-start gap-2">
        <code className="min-w-0 grow wrap-anywhere rounded bg-gray-50 px-2 py-1 font-mono">{text}</code>
        <Button variant="secondary" className="shrink-0 px-3" aria-label={copyLabel} onClick={() => void onCopy()}>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="h-4 w-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          >
            <rect x="6" y="6" width="10" height="11" rx="1.5" />
            <path d="M4 13V4.5A1.5 1.5 0 0 1 5.5 3H13" />
          </svg>
        </Button>
      </dd>
    </div>
  );
}
