"use client";
// Autoresponder: the same controls as in the administrator's account editor (../_editors/autoresponder-fields).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { useLocale, useT } from "@/lib/i18n";
import { accountFields } from "@/lib/schemas/account";
import { AUTORESPONDER_FIELDS, AutoresponderFields, autoresponderProblems } from "../_editors/autoresponder-fields";
import { editorSharedMessages } from "../_editors/messages";
import { SectionForm } from "./section-form";
import { meMessages } from "./messages";
import { errorText, useSection } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const schema = z.object({
  // The check box gives a boolean where the API takes 0/1.
  autoresponder_mode: z.preprocess(
    (v) => (typeof v === "boolean" ? Number(v) : v),
    accountFields.autoresponder_mode.schema,
  ),
  autoresponder_start_date: accountFields.autoresponder_start_date.schema,
  autoresponder_end_date: accountFields.autoresponder_end_date.schema,
  autoresponder_body: accountFields.autoresponder_body.schema,
});

const valuesOf = (r: MyAccountRecord) => ({
  autoresponder_mode: r.autoresponder_mode === 1,
  autoresponder_start_date: r.autoresponder_start_date,
  autoresponder_end_date: r.autoresponder_end_date,
  autoresponder_body: r.autoresponder_body,
});

export function AutoresponderForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const shared = useT(editorSharedMessages);
  const locale = useLocale();
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(record),
  });
  const save = useSection(form, record, AUTORESPONDER_FIELDS, {
    values: valuesOf,
    check: (v) => autoresponderProblems(v, locale),
  });
  const errors = form.formState.errors;
  const err = (f: string) => {
    const e = errors[f as keyof typeof errors] as { message?: string; type?: string } | undefined;
    const rule =
      f === "autoresponder_body"
        ? shared("tooLong", { n: 10000 })
        : f === "autoresponder_mode"
          ? t("fixFields")
          : t("invalidDate");
    return errorText(e, rule);
  };
  return (
    <SectionForm title={t("arTitle")} description={t("arDesc")} save={save}>
      <AutoresponderFields control={form.control} register={form.register} err={err} />
    </SectionForm>
  );
}
