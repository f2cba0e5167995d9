"use client";
// The alias table: the shared resource table with the address and target columns; the target is changed in place.
import { useRef, useState, useSyncExternalStore } from "react";
import { Address, Button, Card } from "@/components";
import { aliases, type AliasItem } from "@/lib/client/hooks/aliases";
import { useDomainName } from "@/lib/client/hooks/session";
import { useT } from "@/lib/i18n";
import { PageHeader } from "../_postmaster/page-parts";
import { nameColumn, ResourceTable, type Column } from "../_postmaster/resource-table";
import { ALIAS_NOUN } from "../accounts/messages";
import { CreateAliasForm, EditTargetForm } from "./alias-forms";
import { aliasMessages } from "./messages";

// The md breakpoint, where the target column appears (.twide in app/globals.css).
const WIDE = "(min-width: 48rem)";
const onWidthChange = (notify: () => void) => {
  const query = window.matchMedia(WIDE);
  query.addEventListener("change", notify);
  return () => query.removeEventListener("change", notify);
};

export function AliasesTable() {
  const t = useT(aliasMessages);
  const domain = useDomainName();
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  // The alias whose "Change target" button gets the focus back when its editor closes (Escape, Cancel or saved):
  // the button comes back with the row's text, and the focus would otherwise fall to the page's body.
  const focusBack = useRef<string | null>(null);
  const close = (name: string) => {
    focusBack.current = name;
    setEditing(null);
  };
  // The target is changed where it is shown: in its own column on wide screens, under the address on phones.
  const wide = useSyncExternalStore(
    onWidthChange,
    () => window.matchMedia(WIDE).matches,
    () => false,
  );
  const editor = (a: AliasItem) =>
    domain && (
      <EditTargetForm
        domain={domain}
        alias={a}
        onCancel={() => close(a.name)}
        onDone={() => {
          close(a.name);
          setNotice(t("updated", { email: a.email }));
        }}
      />
    );

  const columns: Column<AliasItem>[] = [
    nameColumn(
      t("name"),
      "md:w-[40%]",
      (a) => (
        <>
          <span className="font-medium">
            <Address text={a.email} phoneColumn="name" />
          </span>
          {editing === a.name && !wide && editor(a)}
        </>
      ),
      // While the target is edited under the address, its field shows the target: not a second time below.
      (a) =>
        editing !== a.name && (
          <p className="text-sm">
            → <Address text={a.target} phoneColumn="all" />
          </p>
        ),
    ),
    {
      key: "target",
      label: t("target"),
      wide: true,
      cell: (a) => (editing === a.name && wide ? editor(a) : <Address text={a.target} />),
    },
  ];

  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />
      <Card title={t("createTitle")}>
        {domain && (
          <CreateAliasForm
            domain={domain}
            onAttempt={() => setNotice("")}
            onDone={(email) => setNotice(t("created", { email }))}
          />
        )}
      </Card>
      <ResourceTable
        resource={aliases}
        t={t}
        noun={ALIAS_NOUN}
        columns={columns}
        rowActions={(a) =>
          editing !== a.name && (
            // One line from 360 px (at 375 px it took two); at 320 px it wraps, so that the table fits.
            <Button
              variant="ghost"
              className="min-h-8 px-2 min-[360px]:whitespace-nowrap"
              aria-label={`${t("edit")}: ${a.email}`}
              onClick={() => setEditing(a.name)}
              ref={(el) => {
                if (el && focusBack.current === a.name) {
                  focusBack.current = null;
                  el.focus();
                }
              }}
            >
              {t("edit")}
            </Button>
          )
        }
        exportAs="aliases"
        // "Change target" above "Delete" until xl, side by side from there (240 px in English): in one row of 176 px
        // they ran over the target column, and a wider column left the target's editor no room at 768 px.
        actionsClassName="md:w-40 xl:w-60"
        actionsRowClassName="xl:flex-row xl:justify-end"
        notice={notice}
        onNotice={setNotice}
      />
    </div>
  );
}
