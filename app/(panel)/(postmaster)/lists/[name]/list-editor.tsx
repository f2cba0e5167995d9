"use client";
// The mailing-list editor: settings, subscribers, moderators and the eight templates, checked with the list
// field rules; an API error lands on the field its `source` names.
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useController, useWatch, type Control, type FieldErrors, type Resolver } from "react-hook-form";
import { Alert, Button, Card, Checkbox, Select, TextArea, TextField } from "@/components";
import { catalogText } from "@/lib/client/error-text";
import { useMailingList, useSaveMailingList, type MailingListRecord } from "@/lib/client/hooks/mailing-lists";
import { useDomainName } from "@/lib/client/hooks/session";
import { fieldSpecResolver, recordToForm, type FieldFormContext } from "@/lib/client/hooks/use-field-form";
import { errorDetailText } from "@/lib/errors/details";
import { useT } from "@/lib/i18n";
import {
  DEFAULT_LIST_TEMPLATES,
  mailingListFields,
  MODERATORS_REQUIRED_ATTRIBUTES,
  moderatorsMissing,
  REPLYTO_REQUIRED_ATTRIBUTES,
  replyToAddressMissing,
} from "@/lib/schemas/mailing-list";
import { useEditorForm } from "../../../_editors/use-editor-form";
import { FieldCard, SaveBar } from "../../_postmaster/page-parts";
import { RecordPage } from "../../_postmaster/record-page";
import { listEditorMessages } from "./messages";
import { MemberEditor } from "./member-editor";
import { ModerationPanel } from "./moderation-panel";

const FLAGS = ["replyto_catchall", "autosubscribe_enabled"] as const;
const MEMBERS = ["accounts", "moderators"] as const;
const FIELDS = Object.keys(mailingListFields);
const SCALARS = FIELDS.filter((f) => !(MEMBERS as readonly string[]).includes(f));
const TEMPLATES = ["subscribe_request", "unsubscribe_request", "subscribe", "unsubscribe"] as const;

type Values = Record<string, string | boolean | string[]>;
const fieldsResolver = fieldSpecResolver<Values>(mailingListFields, FIELDS);
/** The rules across fields, each with the field its error lands on and the attributes the service gives it. */
const CROSS_FIELD_RULES = [
  { field: "replyto_email", broken: replyToAddressMissing, attributes: REPLYTO_REQUIRED_ATTRIBUTES },
  { field: "moderators", broken: moderatorsMissing, attributes: MODERATORS_REQUIRED_ATTRIBUTES },
] as const;

/**
 * Every field's own rule and the rules across fields (an empty reply-to address while replies go to it, a moderated
 * list without a moderator), all in one pass, so one save shows every error at once; the service checks the same.
 */
const resolver: Resolver<Values, FieldFormContext> = async (values, context, options) => {
  const result = await fieldsResolver(values, context, options);
  const locale = context?.locale ?? "pl";
  const broken = CROSS_FIELD_RULES.filter((r) => r.broken(values) && !result.errors[r.field]);
  if (broken.length === 0) return result;
  const errors = { ...result.errors } as FieldErrors<Values>;
  for (const r of broken) {
    const message = [catalogText("invalidListOption", locale), errorDetailText(r.attributes, locale)].join(" ");
    Object.assign(errors, { [r.field]: { type: "required", message } });
  }
  return { values: {}, errors };
};

export function ListEditor({ name }: { name: string }) {
  const t = useT(listEditorMessages);
  const domain = useDomainName();
  // Read once, then dropped from the address: a reload or a bookmark of the page does not say "created" again.
  const params = useSearchParams();
  const [justCreated] = useState(() => params.get("created") === "1");
  useEffect(() => {
    if (!params.has("created")) return;
    const url = new URL(window.location.href);
    url.searchParams.delete("created");
    window.history.replaceState(window.history.state, "", url);
  }, [params]);
  return (
    <RecordPage
      back="/lists"
      name={name}
      domain={domain}
      query={useMailingList(domain, name)}
      t={t}
      notice={justCreated && <Alert tone="success">{t("created")}</Alert>}
    >
      {(record, domain) => (
        <>
          <EditorForm domain={domain} record={record} />
          <ModerationPanel domain={domain} name={record.name} />
        </>
      )}
    </RecordPage>
  );
}

function EditorForm({ domain, record }: { domain: string; record: MailingListRecord }) {
  const t = useT(listEditorMessages);
  const save = useSaveMailingList(domain);
  const defaults = useMemo<Values>(
    () => ({
      ...recordToForm(record, SCALARS, [], FLAGS),
      accounts: record.accounts ?? [],
      moderators: record.moderators ?? [],
    }),
    [record],
  );
  const { form, onSubmit, outcome, err } = useEditorForm(resolver, defaults, {
    fields: FIELDS,
    label: (field) => fieldLabel(t, field),
    save: (values) => save.mutateAsync({ name: record.name, body: values, create: false }),
    texts: { saved: t("saved") },
  });
  const { register, control, setValue, formState } = form;
  const replyto = useWatch({ control, name: "replyto_mode" });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <FieldCard title={t("settings")} description={t("settingsDesc")}>
        <TextField
          className="sm:col-span-2"
          label={t("description")}
          hint={t("descriptionHint")}
          maxLength={255}
          error={err("description")}
          {...register("description")}
        />
        <Select
          label={t("privacy_mode")}
          hint={t("privacyHint")}
          error={err("privacy_mode")}
          options={(["0", "1", "2"] as const).map((v) => ({ value: v, label: t(`privacy${v}`) }))}
          {...register("privacy_mode")}
        />
        <Select
          label={t("replyto_mode")}
          error={err("replyto_mode")}
          options={(["0", "1", "2"] as const).map((v) => ({ value: v, label: t(`replyto${v}`) }))}
          {...register("replyto_mode")}
        />
        <TextField
          label={t("replyto_email")}
          hint={t("replytoEmailHint")}
          type="email"
          required={replyto === "2"}
          error={err("replyto_email")}
          {...register("replyto_email")}
        />
        <TextField
          label={t("confirm_url")}
          hint={t("confirmUrlHint")}
          type="url"
          error={err("confirm_url")}
          {...register("confirm_url")}
        />
        <Checkbox
          label={t("replyto_catchall")}
          hint={t("replytoCatchallHint")}
          error={err("replyto_catchall")}
          {...register("replyto_catchall")}
        />
        <Checkbox
          label={t("autosubscribe_enabled")}
          hint={t("autosubscribeHint")}
          error={err("autosubscribe_enabled")}
          {...register("autosubscribe_enabled")}
        />
      </FieldCard>

      <div className="grid gap-4 lg:grid-cols-2">
        {MEMBERS.map((m) => (
          <Card
            key={m}
            title={t(m === "accounts" ? "subscribers" : "moderators")}
            description={t(m === "accounts" ? "subscribersDesc" : "moderatorsDesc")}
          >
            <MemberField
              control={control}
              name={m}
              what={t(m === "accounts" ? "subscribers" : "moderators")}
              error={err(m)}
            />
          </Card>
        ))}
      </div>

      <Card title={t("templates")} description={t("templatesDesc")}>
        <div className="space-y-6">
          {TEMPLATES.map((tpl) => {
            const which = t(tpl);
            const subject = `${tpl}_mail_subject` as keyof typeof DEFAULT_LIST_TEMPLATES;
            const body = `${tpl}_mail_body` as keyof typeof DEFAULT_LIST_TEMPLATES;
            return (
              <fieldset key={tpl} className="space-y-2">
                <legend className="text-base font-semibold">{which}</legend>
                <TextField
                  label={t("subject", { which })}
                  maxLength={255}
                  error={err(subject)}
                  {...register(subject)}
                />
                <TextArea
                  label={t("body", { which })}
                  rows={6}
                  hint={tpl.endsWith("_request") ? t("confirmLinkHint") : undefined}
                  error={err(body)}
                  {...register(body)}
                />
                {/* Its text in line with the fields' left edge (the ghost button's padding indented it), on every line
                    when it wraps on a phone (a button centres its lines). */}
                <Button
                  variant="ghost"
                  className="-ml-4 justify-start text-left"
                  onClick={() => {
                    setValue(subject, DEFAULT_LIST_TEMPLATES[subject], { shouldDirty: true });
                    setValue(body, DEFAULT_LIST_TEMPLATES[body], { shouldDirty: true });
                  }}
                >
                  {t("restore", { which })}
                </Button>
              </fieldset>
            );
          })}
        </div>
      </Card>

      <SaveBar saveLabel={t("save")} unsavedLabel={t("unsaved")} state={formState} status={outcome} sticky />
    </form>
  );
}

/** Subscribers or moderators as one form field: a failed save focuses its add field (useController's ref). */
function MemberField({
  control,
  name,
  what,
  error,
}: {
  control: Control<Values, FieldFormContext>;
  name: (typeof MEMBERS)[number];
  what: string;
  error?: string;
}) {
  const { field } = useController({ control, name });
  return (
    <MemberEditor
      what={what}
      values={Array.isArray(field.value) ? field.value : []}
      onChange={(next) => field.onChange(next)}
      error={error}
      inputRef={field.ref}
    />
  );
}

type ListKey = keyof typeof listEditorMessages.pl;
/** A field's label as the form shows it (the save's error summary names the fields with it). */
function fieldLabel(t: (key: ListKey, vars?: Record<string, string>) => string, field: string): string {
  const tpl = TEMPLATES.find((x) => field.startsWith(`${x}_mail_`));
  if (tpl) return t(field.endsWith("_subject") ? "subject" : "body", { which: t(tpl) });
  if (field === "accounts") return t("subscribers");
  return field in listEditorMessages.pl ? t(field as ListKey) : field;
}
