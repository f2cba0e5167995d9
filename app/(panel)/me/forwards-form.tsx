"use client";
// Forwarding: up to forward_limit addresses (set by the domain administrator), and whether to keep a copy.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Checkbox, TextArea } from "@/components";
import { useLocale, useT, type Locale } from "@/lib/i18n";
import { counted } from "@/lib/i18n/plural";
import { accountFields } from "@/lib/schemas/account";
import { SectionForm } from "./section-form";
import { meMessages } from "./messages";
import { errorText, useSection } from "./use-section";
import { lines, type MyAccountRecord } from "./use-my-account";

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

const schemaFor = (limit: number) =>
  z.object({
    // The service's own rule for the entries, then the account's own limit (a separate message says so).
    forwards: z
      .string()
      .transform(lines)
      .pipe(accountFields.forwards.schema)
      .refine((xs) => xs.length <= limit, { params: { tooMany: true } }),
    // The check box gives a boolean where the API takes 0/1.
    keep_mail: z.preprocess((v) => (typeof v === "boolean" ? Number(v) : v), accountFields.keep_mail.schema),
  });

export function ForwardsForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const limit = record.forward_limit;
  const schema = useMemo(() => schemaFor(limit), [limit]);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { forwards: record.forwards.join("\n"), keep_mail: record.keep_mail === 1 },
  });
  const save = useSection(form, record, FIELDS);
  const errors = form.formState.errors;
  const count = lines(String(useWatch({ control: form.control, name: "forwards" }) ?? "")).length;
  const locale = useLocale();
  const forwardsExplanation = count > limit ? t("fwTooMany", { n: forwardCount(locale, limit) }) : t("fwInvalid");
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
          error={errorText(errors.forwards, forwardsExplanation)}
          {...form.register("forwards")}
        />
      )}
      <Checkbox
        label={t("fwKeep")}
        hint={t("fwKeepHint")}
        error={errorText(errors.keep_mail, t("saveFailed"))}
        {...form.register("keep_mail")}
      />
    </SectionForm>
  );
}
