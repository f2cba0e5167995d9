"use client";
// The account editor: every writable field of the record, grouped, checked with the API's own field rules;
// an API error lands on the field its `source` names.
import { useMemo } from "react";
import { useWatch, type UseFormRegister } from "react-hook-form";
import { Address, Card, Checkbox, Select, TextArea, TextField, UsageBar } from "@/components";
import { useAccount, useUpdateAccounts, type AccountRecord } from "@/lib/client/hooks/accounts";
import { asText } from "@/lib/client/hooks/page-params";
import { useDomainName } from "@/lib/client/hooks/session";
import { fieldSpecResolver, recordToForm } from "@/lib/client/hooks/use-field-form";
import { useLocale, useT } from "@/lib/i18n";
import { formatDate } from "@/lib/errors/details";
import { formatNumber } from "@/lib/i18n/number";
import { accountFields } from "@/lib/schemas/account";
import { SPAM_LISTS } from "@/lib/schemas/spam";
import { AutoresponderFields, autoresponderProblems } from "../../../_editors/autoresponder-fields";
import { DateField } from "../../../_editors/date-field";
import { editorSharedMessages } from "../../../_editors/messages";
import { useEditorForm } from "../../../_editors/use-editor-form";
import { megabytes, todayIso } from "../../../_editors/format";
import { FieldCard, SaveBar } from "../../_postmaster/page-parts";
import { RecordPage } from "../../_postmaster/record-page";
import { SpamSwitches } from "../../_postmaster/tri-state";
import { editorMessages } from "./messages";
import { SignInState } from "./sign-in-state";
import { SmsLog } from "./sms-log";

const LINES = ["forwards", "aliases", ...SPAM_LISTS] as const;
const FLAGS = ["blocked", "keep_mail", "spam_enabled", "autoresponder_mode"] as const;
const FIELDS = Object.keys(accountFields) as (keyof typeof accountFields)[];
/** The operator codes of the specification, labelled by brand (the mapping is ours: docs/panel.md). */
const OPERATORS: [number, string][] = [
  [11, "Plus"],
  [12, "Plus (karta)"],
  [13, "Plus Mix"],
  [21, "T-Mobile"],
  [22, "T-Mobile (karta)"],
  [23, "Heyah"],
  [31, "Orange"],
  [32, "Orange (karta)"],
  [33, "nju mobile"],
  [51, "Play"],
];

type Values = Record<string, string | boolean>;
const resolver = fieldSpecResolver<Values>(accountFields, FIELDS, LINES);

export function AccountEditor({ name }: { name: string }) {
  const t = useT(editorMessages);
  const domain = useDomainName();
  return (
    <RecordPage back="/accounts" name={name} domain={domain} query={useAccount(domain, name)} t={t}>
      {(record, domain) => <EditorForm domain={domain} record={record} />}
    </RecordPage>
  );
}

function EditorForm({ domain, record }: { domain: string; record: AccountRecord }) {
  const t = useT(editorMessages);
  const save = useUpdateAccounts(domain);
  const defaults = useMemo(() => recordToForm(record, FIELDS, LINES, FLAGS), [record]);
  const locale = useLocale();
  const { form, onSubmit, outcome, err } = useEditorForm(resolver, defaults, {
    fields: FIELDS,
    save: (values) => save.mutateAsync({ names: [record.name], body: values }),
    check: (values) => autoresponderProblems(values, locale),
    texts: { saved: t("saved") },
  });
  const { register, control, formState } = form;
  const text = (f: string, props: Record<string, unknown> = {}) => (
    <TextField label={t(f as never)} error={err(f)} {...props} {...register(f)} />
  );
  const usage = Number(record.usage) || 0;
  const expiration = asText(useWatch({ control, name: "expiration_date" }));
  // A past date is allowed (it blocks the account's logins at once), but said so before saving.
  const expired = /^\d{4}-\d{2}-\d{2}$/.test(expiration) && expiration < todayIso();

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <Card title={t("general")} description={t("generalDesc")}>
        <dl className="mb-4 grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-gray-700">{t("email")}</dt>
            <dd className="font-medium">
              <Address text={record.email} />
            </dd>
          </div>
          <div>
            <dt className="text-gray-700">{t("createdOn")}</dt>
            <dd>{formatDate(asText(record.creation_date), locale)}</dd>
          </div>
          <div>
            <dt className="text-gray-700">{t("lastLogin")}</dt>
            <dd>
              {record.last_auth_date
                ? `${formatDate(asText(record.last_auth_date), locale)} (${asText(record.last_auth_ip)})`
                : t("never")}
            </dd>
          </div>
        </dl>
        <div className="mb-4">
          <UsageBar
            label={t("usage")}
            value={usage}
            valueText={t("usageOf", {
              used: megabytes(record.usage_bytes, locale),
              capacity: formatNumber(Number(record.capacity), locale),
              pct: usage,
            })}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {text("description", { maxLength: 48 })}
          {text("capacity", { inputMode: "numeric" })}
          <DateField
            control={control}
            name="expiration_date"
            label={t("expiration_date")}
            hint={t("expirationHint")}
            warning={expired ? t("expiredWarning") : undefined}
            error={err("expiration_date")}
          />
          {text("usage_notification_level", { inputMode: "numeric" })}
          {text("inbox_delete_after", { inputMode: "numeric", hint: t("daysHint") })}
          {text("trash_delete_after", { inputMode: "numeric", hint: t("daysHint") })}
          {text("forward_limit", { inputMode: "numeric" })}
          {text("alias_limit", { inputMode: "numeric" })}
          <Checkbox label={t("blocked")} hint={t("blockedHint")} error={err("blocked")} {...register("blocked")} />
        </div>
      </Card>

      <Card title={t("passwordGroup")} description={t("passwordDesc")}>
        <div className="grid gap-3 sm:grid-cols-2">
          {text("password", { type: "password", autoComplete: "new-password", hint: t("passwordHint") })}
          {text("password_retype", { type: "password", autoComplete: "new-password" })}
        </div>
        <SignInState name={String(record.name)} />
      </Card>

      <FieldCard title={t("forwarding")} description={t("forwardingDesc")}>
        <TextArea label={t("forwards")} hint={t("forwardsHint")} error={err("forwards")} {...register("forwards")} />
        <TextArea label={t("aliases")} hint={t("aliasesHint")} error={err("aliases")} {...register("aliases")} />
        <Checkbox label={t("keep_mail")} error={err("keep_mail")} {...register("keep_mail")} />
      </FieldCard>

      <Card title={t("autoresponder")} description={t("autoresponderDesc")}>
        <AutoresponderFields control={control} register={register} err={err} />
      </Card>

      <Card title={t("antispam")} description={t("antispamDesc")}>
        <SpamFields record={record} register={register} err={err} />
      </Card>

      <Card title={t("sms")} description={t("smsDesc")}>
        <div className="grid gap-3 sm:grid-cols-2">
          {[1, 2].map((n) => (
            <fieldset key={n} className="space-y-3 rounded border border-gray-200 p-3">
              <legend className="px-1 text-sm font-semibold">{t("number", { n })}</legend>
              <TextField
                label={t("phone", { n })}
                hint={t("phoneHint")}
                inputMode="tel"
                error={err(`sms_phone_number_${n}`)}
                {...register(`sms_phone_number_${n}`)}
              />
              <Select
                label={t("operator", { n })}
                error={err(`sms_operator_${n}`)}
                options={[
                  { value: "0", label: t("operatorAuto") },
                  ...OPERATORS.map(([code, brand]) => ({ value: String(code), label: `${brand} (${code})` })),
                ]}
                {...register(`sms_operator_${n}`)}
              />
              <TextField
                label={t("smsLogin", { n })}
                autoComplete="off"
                error={err(`sms_login_${n}`)}
                {...register(`sms_login_${n}`)}
              />
              <TextField
                label={t("smsPassword", { n })}
                type="password"
                autoComplete="off"
                error={err(`sms_password_${n}`)}
                {...register(`sms_password_${n}`)}
              />
            </fieldset>
          ))}
          <Select
            label={t("sms_send_to")}
            error={err("sms_send_to")}
            options={[
              { value: "0", label: t("sendGateway") },
              { value: "1", label: t("sendMail") },
            ]}
            {...register("sms_send_to")}
          />
          <Select
            label={t("sms_cnt")}
            error={err("sms_cnt")}
            options={[0, 1, 2, 3].map((c) => ({ value: String(c), label: t(`cnt${c}` as "cnt0") }))}
            {...register("sms_cnt")}
          />
        </div>
        <SmsLog domain={domain} name={record.name} />
      </Card>

      <SaveBar saveLabel={t("save")} unsavedLabel={t("unsaved")} state={formState} status={outcome} sticky />
    </form>
  );
}

function SpamFields({
  record,
  register,
  err,
}: {
  record: AccountRecord;
  register: UseFormRegister<Values>;
  err: (f: string) => string | undefined;
}) {
  const t = useT(editorMessages);
  const shared = useT(editorSharedMessages);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Checkbox
        className="sm:col-span-2"
        label={t("spam_enabled")}
        error={err("spam_enabled")}
        {...register("spam_enabled")}
      />
      <Select
        label={shared("spam_rule")}
        error={err("spam_rule")}
        options={[
          { value: "move", label: shared("ruleMove") },
          { value: "tag", label: shared("ruleTag") },
        ]}
        {...register("spam_rule")}
      />
      <Select
        label={shared("spam_hits")}
        error={err("spam_hits")}
        options={[2, 5, 7, 9].map((h) => ({ value: String(h), label: shared(`hits${h}` as "hits2") }))}
        {...register("spam_hits")}
      />
      <TextField
        label={shared("spam_delete_after")}
        hint={shared("spamDeleteHint")}
        inputMode="numeric"
        error={err("spam_delete_after")}
        {...register("spam_delete_after")}
      />
      <SpamSwitches record={record} err={err} register={register} />
      {SPAM_LISTS.map((f) => (
        <TextArea key={f} label={shared(f)} hint={shared("spamListHint")} error={err(f)} {...register(f)} />
      ))}
    </div>
  );
}
