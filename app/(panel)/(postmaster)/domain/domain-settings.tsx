"use client";
// Domain settings: catchall with each type's rule explained, anti-spam switches showing the server default,
// the five address lists (one entry a line, each checked with the API's rule), and the limits as bars.
import { useEffect, useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Card, Checkbox, Select, SkeletonLines, TextArea, TextField, UsageBar } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useDomain, useUpdateDomain, type DomainRecord } from "@/lib/client/hooks/domain";
import { asText } from "@/lib/client/hooks/page-params";
import { useDomainName } from "@/lib/client/hooks/session";
import { fieldSpecResolver, recordToForm, type FieldFormContext } from "@/lib/client/hooks/use-field-form";
import { useSaveForm } from "@/lib/client/hooks/use-save-form";
import { useT } from "@/lib/i18n";
import { domainFields } from "@/lib/schemas/domain";
import { LoadFailedAlert, PageHeader, SaveBar } from "../_postmaster/page-parts";
import { TriStateSelect } from "../_postmaster/tri-state";
import { DkimCard } from "./dkim-card";
import { domainMessages } from "./messages";

const LISTS = [
  "spam_white_list",
  "spam_black_list",
  "spam_greylist_whitelist",
  "spam_spf_whitelist",
  "spam_rbl_whitelist",
] as const;
const FIELDS = Object.keys(domainFields);
type Values = Record<string, string | boolean>;
const resolver = fieldSpecResolver<Values>(domainFields, FIELDS, LISTS);

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
  const errorText = useErrorText();
  const save = useUpdateDomain(domain);
  const defaults = useMemo(() => recordToForm(record, FIELDS, LISTS, ["spam_enabled"]), [record]);
  const form = useForm<Values, FieldFormContext>({
    resolver,
    context: { locale: errorText.locale },
    defaultValues: defaults,
  });
  const { register, reset, control, formState } = form;
  useEffect(() => reset(defaults), [defaults, reset]);
  const { onSubmit, outcome } = useSaveForm(form, {
    fields: FIELDS,
    // With no catchall the address means nothing: send it empty rather than a stale one.
    save: (values) =>
      save.mutateAsync(String(values.catchall_type) === "0" ? { ...values, catchall_address: "" } : values),
    texts: { saved: t("saved"), failed: (error) => t("saveFailed", { error }) },
  });
  const errors = formState.errors;
  const err = (f: string) => errors[f]?.message;
  const type = asText(useWatch({ control, name: "catchall_type" })) as "0" | "1" | "2" | "3";

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <Card title={t("catchall")} description={t("catchallDesc")}>
        <div className="grid gap-3 sm:grid-cols-2">
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
        </div>
      </Card>

      <Card title={t("antispam")} description={t("antispamDesc")}>
        <div className="grid gap-3 sm:grid-cols-3">
          <Checkbox
            className="sm:col-span-3"
            label={t("spam_enabled")}
            error={err("spam_enabled")}
            {...register("spam_enabled")}
          />
          {(["rbl", "spf", "greylist"] as const).map((m) => (
            <TriStateSelect
              key={m}
              label={t(`spam_${m}_enabled`)}
              defaultValue={record[`spam_${m}_default`]}
              error={err(`spam_${m}_enabled`)}
              registration={register(`spam_${m}_enabled`)}
            />
          ))}
        </div>
      </Card>

      <Card title={t("lists")} description={t("listsDesc")}>
        <div className="grid gap-3 sm:grid-cols-2">
          {LISTS.map((f) => (
            <TextArea key={f} label={t(f)} hint={t("listHint")} rows={4} error={err(f)} {...register(f)} />
          ))}
        </div>
      </Card>

      <SaveBar
        saveLabel={t("save")}
        unsavedLabel={t("unsaved")}
        submitting={formState.isSubmitting}
        dirty={formState.isDirty}
        status={outcome}
      />
    </form>
  );
}

function Limits({ record }: { record: DomainRecord }) {
  const t = useT(domainMessages);
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
          return <UsageBar key={key} label={t(label)} value={used} max={max} valueText={`${used} / ${max}`} />;
        })}
      </div>
    </Card>
  );
}
