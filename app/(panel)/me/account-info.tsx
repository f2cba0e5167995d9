"use client";
// The fields only the domain administrator may change, shown read-only (and never part of a save). The postmaster
// is that administrator: for him the card points to his account's editor instead of to "the administrator".
import Link from "next/link";
import { Fragment, type ReactNode } from "react";
import { Address, Card, UsageBar } from "@/components";
import { formatDate } from "@/lib/errors/details";
import { useLocale, useT } from "@/lib/i18n";
import { formatMegabytes, formatNumber } from "@/lib/i18n/number";
import { meMessages } from "./messages";
import type { MyAccountRecord } from "./use-my-account";

export function AccountInfo({ record, postmaster = false }: { record: MyAccountRecord; postmaster?: boolean }) {
  const t = useT(meMessages);
  const locale = useLocale();
  const date = (d: string) => (d ? formatDate(d, locale) : "");
  const rows: [string, ReactNode][] = [
    [t("description"), record.description || t("none")],
    [t("capacity"), `${formatNumber(record.capacity, locale)}\u00a0MB`],
    [t("expiration"), date(record.expiration_date) || t("never")],
    [t("forwardLimit"), String(record.forward_limit)],
    [t("aliasLimit"), String(record.alias_limit)],
    [
      t("aliases"),
      record.aliases.length
        ? record.aliases.map((a, i) => (
            <Fragment key={a}>
              {i > 0 && ", "}
              <Address text={a} />
            </Fragment>
          ))
        : t("none"),
    ],
    [t("created"), date(record.creation_date) || "—"],
    [t("lastLogin"), date(record.last_auth_date) || "—"],
  ];
  return (
    <Card
      title={t("infoTitle")}
      description={
        postmaster ? (
          <>
            {t("infoDescPostmaster")}{" "}
            <Link href="/accounts/postmaster" className="link">
              {t("infoEditorLink")}
            </Link>
          </>
        ) : (
          t("infoDesc")
        )
      }
    >
      <div className="mb-4">
        <UsageBar
          label={t("usage")}
          value={Number(record.usage)}
          valueText={t("usageOf", {
            used: formatMegabytes(record.usage_bytes, locale),
            c: formatNumber(record.capacity, locale),
            p: record.usage,
          })}
        />
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="account-info">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-wrap justify-between gap-2 border-b border-gray-200 py-1">
            <dt className="text-gray-700">{label}</dt>
            <dd className="min-w-0 font-medium text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
