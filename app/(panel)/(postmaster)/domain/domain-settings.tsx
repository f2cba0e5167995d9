"use client";
// Domain settings: catchall with each type's rule explained, anti-spam switches showing the server default,
// the five address lists (one entry a line, each checked with the API's rule), and the limits as bars.
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { Card, Checkbox, Select, SkeletonLines, TextArea, TextField, UsageBar } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useDomain, useUpdateDomain, type DomainRecord } from "@/lib/client/hooks/domain";
import { asText } from "@/lib/client/hooks/page-params";
import { useDomainName } from "@/lib/client/hooks/session";
import { fieldSpecResolver, recordToForm } from "@/lib/client/hooks/use-field-form";
import { useLocale, useT } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/number";
import { catchallTargetMissing, domainFields } from "@/lib/schemas/domain";
import { SPAM_LISTS } from "@/lib/schemas/spam";
import { editorSharedMessages } from "../../_editors/messages";
import { useEditorForm } from "../../_editors/use-editor-form";
import { FieldCard, LoadFailedAlert, PageHeader, SaveBar } from "../_postmaster/page-parts";
import { SpamSwitches } from "../_postmaster/tri-state";
import { DkimCard } from "./dkim-card";
import { domainMessages } from "./messages";

const FIELDS = Object.keys(domainFields);
type Values = Record<string, string | boolean>;
const resolver = fieldSpecResolver<Values>(domainFields, FIELDS, SPAM_LISTS);

export function DomainSettings() {
  const t = useT(domainMessages);
  const errorText = useErrorText();
  const domain = useDomainName();
  const record = useDomain(domain);
  return (
    <div className="space-y-4">
      <PageHeader title={t("title")} intro={t("intro", { domain: domain ?? "…" })} />
      {record.isError && (
        <LoadFailedAlert
          text={t("loadFailed", { error: errorText.failure(record.error) })}
          retryLabel={t("retry")}
          onRetry={() => void record.refetch()}
        />
      )}
      {record.data && domain ? (
        <>
          <SettingsForm domain={domain} record={record.data} />
          <DkimCard domain={domain} />
          <Limits record={record.data} />
        </>
      ) : (
        !record.isError && <SkeletonLines lines={12} label={t("loading")} />
      )}
    </div>
  );
}

function SettingsForm({ domain, record }: { domain: string; record: DomainRecord }) {
  const t = useT(domainMessages);
  const shared = useT(editorSharedMessages);
  const save = useUpdateDomain(domain);
  const defaults = useMemo(() => recordToForm(record, FIELDS, SPAM_LISTS, ["spam_enabled"]), [record]);
  const { form, onSubmit, outcome, err } = useEditorForm(resolver, defaults, {
    fields: FIELDS,
    // With no catchall the address means nothing: send it empty rather than a stale one.
    save: (values) =>
      save.mutateAsync(String(values.catchall_type) === "0" ? { ...values, catchall_address: "" } : values),
    // The API refuses an empty target too, but only as "does not fit the type", with a code for support.
    check: (values) =>
      catchallTargetMissing(values.catchall_type, values.catchall_address)
        ? [{ field: "catchall_address", message: t("addressRequired") }]
        : [],
    texts: { saved: t("saved") },
  });
  const { register, control, formState } = form;
  const type = asText(useWatch({ control, name: "catchall_type" })) as "0" | "1" | "2" | "3";

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <FieldCard title={t("catchall")} description={t("catchallDesc")}>
        <Select
          label={t("catchall_type")}
          error={err("catchall_type")}
          options={(["0", "1", "2", "3"] as const).map((v) => ({ value: v, label: t(`type${v}`) }))}
          {...register("catchall_type")}
        />
        <TextField
          label={t("catchall_address")}
          readOnly={type === "0"}
          placeholder={type === "0" ? t("addressNone") : undefined}
          hint={type === "0" ? undefined : t(`address${type}`)}
          autoComplete="off"
          error={err("catchall_address")}
          {...register("catchall_address")}
        />
        <p className="text-sm text-gray-800 sm:col-span-2" aria-live="polite">
          {t(`rule${type}`, { domain })}
        </p>
      </FieldCard>

      <FieldCard title={t("antispam")} description={t("antispamDesc")} columns={3}>
        <Checkbox
          className="col-span-full"
          label={t("spam_enabled")}
          error={err("spam_enabled")}
          {...register("spam_enabled")}
        />
        <SpamSwitches record={record} err={err} register={register} />
      </FieldCard>

      <FieldCard title={t("lists")} description={t("listsDesc")}>
        {SPAM_LISTS.map((f) => (
          <TextArea key={f} label={shared(f)} hint={shared("spamListHint")} rows={4} error={err(f)} {...register(f)} />
        ))}
      </FieldCard>

      <SaveBar saveLabel={t("save")} unsavedLabel={t("unsaved")} state={formState} status={outcome} />
    </form>
  );
}

function Limits({ record }: { record: DomainRecord }) {
  const t = useT(domainMessages);
  const locale = useLocale();
  const bars = [
    ["accounts", "account_limit"],
    ["aliases", "alias_limit"],
    ["mailinglists", "mailinglist_limit"],
    ["capacity", "capacity_limit"],
  ] as const;
  return (
    <Card title={t("limits")} description={t("limitsDesc")}>
      <div className="grid gap-4 sm:grid-cols-2">
        {bars.map(([label, key]) => {
          const used = Number(record[`${key}_usage`]) || 0;
          const max = Number(record[key]) || 0;
          return (
            <UsageBar
              key={key}
              label={t(label)}
              value={used}
              max={max}
              valueText={`${formatNumber(used, locale)} / ${formatNumber(max, locale)}`}
            />
          );
        })}
      </div>
    </Card>
  );
}
