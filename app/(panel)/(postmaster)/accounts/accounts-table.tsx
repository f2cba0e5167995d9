"use client";
// The account table: the shared resource table with the account's columns, badges, usage in MB, the bulk
// changes, bulk create (its CSV code loads when the dialog opens) and the delete dialog's list of what goes too.
import dynamic from "next/dynamic";
import { useState } from "react";
import { Address, Button, Card, Spinner } from "@/components";
import { accounts, type AccountSummary, type InitialAccountPage } from "@/lib/client/hooks/accounts";
import { useDomainName } from "@/lib/client/hooks/session";
import { useLocale, useT } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/number";
import { Meter } from "../_postmaster/meter";
import { PageHeader } from "../_postmaster/page-parts";
import { descriptionColumn, nameColumn, ResourceTable, type Column } from "../_postmaster/resource-table";
import { linkClass } from "../_postmaster/ui";
import { AccountBadges, isExpired } from "./badges";
import { BulkActions } from "./bulk-actions";
import { ACCOUNT_NOUN, accountMessages } from "./messages";
import { usageText } from "./usage";
import { formatDate } from "@/lib/errors/details";

const CREATE_FORM_ID = "create-account";
/** The account no bulk delete or block may name (the service refuses such a request whole). */
const PROTECTED = ["postmaster"] as const;
// The form (and react-hook-form with it) loads when the postmaster opens it: creating an account is occasional, and
// on the table's first load the form's code and hydration were a measurable share of the main-thread work.
const CreateAccountForm = dynamic(() => import("./create-account-form").then((m) => m.CreateAccountForm), {
  ssr: false,
  loading: () => <Spinner />,
});
// The delete dialog's list of what goes too loads once it opens, in the dialog's box of fixed height, and its
// "Delete" waits for it. The bulk changes are in the first load: loaded when a row was ticked, they arrived under the
// pointer and moved "Delete selected" away from it (a press on it then missed, or hit "Unblock", which asks nothing).
const AccountDeleteDetails = dynamic(() => import("./delete-details").then((m) => m.AccountDeleteDetails), {
  ssr: false,
  loading: () => <Spinner size="sm" />,
});
// Bulk create (CSV parsing, preview, password generation) loads only when its dialog opens.
const BulkCreateDialog = dynamic(() => import("./bulk-create").then((m) => m.BulkCreateDialog), {
  ssr: false,
  loading: () => <Spinner />,
});

/** `initial`: the page the server read for the URL it rendered (absent if the API would refuse that query). */
export function AccountsTable({ initial }: { initial?: InitialAccountPage }) {
  const t = useT(accountMessages);
  const locale = useLocale();
  const domain = useDomainName();
  const update = accounts.useUpdate(domain);
  const [notice, setNotice] = useState("");
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);

  const usage = (r: AccountSummary) => {
    const u = usageText(r, locale, t("usageOf"));
    return <Meter label={`${t("usage")} ${r.email}`} value={u.percent} max={100} text={u.text} />;
  };
  const columns: Column<AccountSummary>[] = [
    nameColumn(
      t("name"),
      // Wider on tablets, where the dates are not shown: at 18% of 768 px a 16-character name broke in two.
      "md:w-[24%] lg:w-[18%]",
      (r) => (
        <>
          {/* A plain link, navigated client-side by the tbody's handler (useLinkNavigation) and never prefetched:
              a page shows up to 200 rows, rarely all opened. */}
          <a
            href={`/accounts/${encodeURIComponent(r.name)}`}
            className={`font-medium ${linkClass}`}
            aria-label={t("edit", { name: r.email })}
          >
            <Address text={r.name} phoneColumn="name" />
          </a>
          <AccountBadges row={r} />
        </>
      ),
      (r) => (
        <>
          {usage(r)}
          {r.description && <p className="line-clamp-2">{r.description}</p>}
        </>
      ),
    ),
    descriptionColumn(t("description")),
    {
      key: "capacity",
      label: t("capacity"),
      wide: true,
      className: "w-28 text-right tabular-nums",
      cell: (r) => formatNumber(Number(r.capacity), locale),
    },
    // Room for the longest figures on one line: "102,400 of 102,400 MB" is 141 px in English.
    { key: "usage", label: t("usage"), wide: true, className: "w-40", cell: usage },
    // Blocked from lg, the dates from xl: at 768 and 1024 px every column's fixed width left the description none
    // (the blocked and expired badges stand beside the name at any width).
    {
      key: "blocked",
      label: t("blocked"),
      wide: true,
      from: "lg",
      className: "w-24",
      cell: (r) => (r.blocked === "1" ? <span className="font-semibold text-red-800">{t("yes")}</span> : t("no")),
    },
    {
      key: "creation_date",
      label: t("created"),
      wide: true,
      from: "xl",
      className: "w-28 tabular-nums",
      cell: (r) => formatDate(r.creation_date, locale),
    },
    {
      key: "expiration_date",
      label: t("expires"),
      wide: true,
      from: "xl",
      // As wide as the other two dates: at w-24 the English "2031-03-15" broke after its hyphens.
      className: "w-28 tabular-nums",
      cell: (r) => (
        <span className={isExpired(r) ? "font-semibold text-red-800" : undefined}>
          {r.expiration_date ? formatDate(r.expiration_date, locale) : "—"}
        </span>
      ),
    },
    {
      key: "last_auth_date",
      label: t("lastLogin"),
      wide: true,
      from: "xl",
      className: "w-28 tabular-nums",
      cell: (r) => (r.last_auth_date ? formatDate(r.last_auth_date, locale) : "—"),
    },
  ];

  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />

      {creating && domain && (
        <div id={CREATE_FORM_ID}>
          <Card title={t("createTitle")} level={2}>
            <CreateAccountForm
              domain={domain}
              onAttempt={() => setNotice("")}
              onDone={(email) => setNotice(t("created_ok", { email }))}
            />
          </Card>
        </div>
      )}
      {importing && domain && <BulkCreateDialog domain={domain} onClose={() => setImporting(false)} />}

      <ResourceTable
        resource={accounts}
        initial={initial}
        t={t}
        noun={ACCOUNT_NOUN}
        columns={columns}
        deletable={(r) => r.name !== "postmaster"}
        protectedNames={PROTECTED}
        skippedNote={t("skippedDelete")}
        linkRows
        actionsClassName="md:w-24"
        bulkActions={(ctx) => <BulkActions ctx={ctx} apply={(names, body) => update.mutateAsync({ names, body })} />}
        deleteDetails={(names, count, onState) =>
          domain && <AccountDeleteDetails domain={domain} names={names} count={count} onState={onState} />
        }
        exportAs="accounts"
        notice={notice}
        onNotice={setNotice}
        toolbar={
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setImporting(true)}>
              {t("bulkCreate")}
            </Button>
            <Button
              variant={creating ? "secondary" : "primary"}
              aria-expanded={creating}
              aria-controls={creating ? CREATE_FORM_ID : undefined}
              onClick={() => setCreating((open) => !open)}
            >
              {creating ? t("closeCreate") : t("createTitle")}
            </Button>
          </div>
        }
      />
    </div>
  );
}
