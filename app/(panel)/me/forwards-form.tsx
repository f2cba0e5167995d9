"use client";
// Forwarding: up to forward_limit addresses (set by the domain administrator), and whether to keep a copy.
// The entries are checked as in the postmaster's account editor (fieldSpecResolver: the API's rule and message,
// the bad entries quoted); the account's own limit is the page's check.
import { useForm, useWatch } from "react-hook-form";
import { Checkbox, TextArea } from "@/components";
import { fieldSpecResolver, linesToList, type FieldFormContext } from "@/lib/client/hooks/use-field-form";
import { useLocale, useT, type Locale } from "@/lib/i18n";
import { counted } from "@/lib/i18n/plural";
import { accountFields } from "@/lib/schemas/account";
import { SectionForm } from "./section-form";
import { meMessages } from "./messages";
import { useSection } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const FIELDS = ["forwards", "keep_mail"] as const;

/** "3 przekierowania", "5 przekierowań", "1 forward". */
const forwardCount = (locale: Locale, n: number) =>
  locale === "pl"
    ? counted(locale, n, {
        one: "przekierowanie",
        few: "przekierowania",
        many: "przekierowań",
        other: "przekierowania",
      })
    : counted(locale, n, { one: "forward", other: "forwards" });

type Values = { forwards: string; keep_mail: boolean };
const valuesOf = (r: MyAccountRecord): Values => ({ forwards: r.forwards.join("\n"), keep_mail: r.keep_mail === 1 });
const resolver = fieldSpecResolver<Values>(accountFields, FIELDS, ["forwards"]);
const entries = (text: unknown) => {
  const list = linesToList(text);
  return Array.isArray(list) ? list.length : 0;
};

export function ForwardsForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const limit = record.forward_limit;
  const locale = useLocale();
  const form = useForm<Values, FieldFormContext>({
    resolver,
    context: { locale },
    defaultValues: valuesOf(record),
  });
  const count = entries(useWatch({ control: form.control, name: "forwards" }));
  const save = useSection(form, record, FIELDS, {
    values: valuesOf,
    check: () =>
      count > limit ? [{ field: "forwards", message: t("fwTooMany", { n: forwardCount(locale, limit) }) }] : [],
  });
  const errors = form.formState.errors;
  return (
    <SectionForm title={t("fwTitle")} description={t("fwDesc")} save={save}>
      {limit === 0 && record.forwards.length === 0 ? (
        <p className="text-sm text-gray-800">{t("fwNoneAllowed")}</p>
      ) : (
        <TextArea
          label={t("fwList")}
          hint={t("fwHint", { n: forwardCount(locale, limit) })}
          rows={Math.min(Math.max(limit, 2), 6)}
          autoCapitalize="none"
          spellCheck={false}
          error={errors.forwards?.message}
          {...form.register("forwards")}
        />
      )}
      <Checkbox
        label={t("fwKeep")}
        hint={t("fwKeepHint")}
        error={errors.keep_mail?.message}
        {...form.register("keep_mail")}
      />
    </SectionForm>
  );
}
