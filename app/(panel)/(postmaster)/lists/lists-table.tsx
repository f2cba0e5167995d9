"use client";
// The mailing-list table: the shared resource table with the list's columns; each list opens in its editor.
import Link from "next/link";
import { useState } from "react";
import { Address, Card } from "@/components";
import { mailingLists, type MailingListSummary } from "@/lib/client/hooks/mailing-lists";
import { useDomainName } from "@/lib/client/hooks/session";
import { useT } from "@/lib/i18n";
import type { Noun } from "@/lib/i18n/plural";
import { PageHeader } from "../_postmaster/page-parts";
import { descriptionColumn, nameColumn, ResourceTable, type Column } from "../_postmaster/resource-table";
import { linkClass } from "../_postmaster/ui";
import { CreateListForm } from "./create-list-form";
import { listMessages } from "./messages";

/** "1 lista", "3 listy", "10 list". */
const LIST_NOUN: Noun = {
  pl: { one: "lista", few: "listy", many: "list", other: "listy" },
  en: { one: "list", other: "lists" },
};

export function ListsTable() {
  const t = useT(listMessages);
  const domain = useDomainName();
  const [notice, setNotice] = useState("");
  const privacy = (l: MailingListSummary) => t(`privacy${l.privacy_mode}` as "privacy0");
  const columns: Column<MailingListSummary>[] = [
    nameColumn(
      t("name"),
      "md:w-[26%]",
      (l) => (
        <Link
          href={`/lists/${encodeURIComponent(l.name)}`}
          className={`font-medium ${linkClass}`}
          aria-label={t("edit", { email: l.email })}
        >
          <Address text={l.email} phoneColumn="name" />
        </Link>
      ),
      (l) => (
        <>
          <p>
            {t("privacy_mode")}: {privacy(l)}
          </p>
          {l.description && <p className="line-clamp-2">{l.description}</p>}
        </>
      ),
    ),
    descriptionColumn(t("description")),
    { key: "privacy_mode", label: t("privacy_mode"), wide: true, className: "w-40 xl:w-56", cell: privacy },
    {
      key: "replyto_mode",
      label: t("replyto_mode"),
      wide: true,
      // Shown from xl: between md and xl the description keeps room for a line; the editor shows both settings.
      from: "xl",
      className: "w-36",
      cell: (l) => t(`replyto${l.replyto_mode}` as "replyto0"),
    },
    {
      key: "autosubscribe_enabled",
      label: t("autosubscribe_enabled"),
      wide: true,
      from: "xl",
      className: "w-52",
      cell: (l) => (l.autosubscribe_enabled === "1" ? t("yes") : t("no")),
    },
  ];

  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />
      <Card title={t("createTitle")}>{domain && <CreateListForm domain={domain} />}</Card>
      <ResourceTable
        resource={mailingLists}
        t={t}
        noun={LIST_NOUN}
        columns={columns}
        exportAs="lists"
        actionsClassName="md:w-24"
        notice={notice}
        onNotice={setNotice}
      />
    </div>
  );
}
