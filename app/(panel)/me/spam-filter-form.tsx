"use client";
// The account's spam filter: on/off, what to do with spam, the sensitivity (the score from which a message is spam),
// and after how many days the Spam folder is cleaned. The mail server applies them to the next message
// (docs/mail-server.md, Anti-spam).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Checkbox, Select, TextField } from "@/components";
import { useT } from "@/lib/i18n";
import { accountFields } from "@/lib/schemas/account";
import { editorSharedMessages } from "../_editors/messages";
import { SectionForm } from "./section-form";
import { meMessages } from "./messages";
import { errorText, useSection } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const FIELDS = ["spam_enabled", "spam_rule", "spam_hits", "spam_delete_after"] as const;

const schema = z.object({
  // The check box gives a boolean where the API takes 0/1.
  spam_enabled: z.preprocess((v) => (typeof v === "boolean" ? Number(v) : v), accountFields.spam_enabled.schema),
  spam_rule: accountFields.spam_rule.schema,
  spam_hits: accountFields.spam_hits.schema,
  spam_delete_after: z.preprocess(
    (v) => (typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v),
    accountFields.spam_delete_after.schema,
  ),
});

const valuesOf = (r: MyAccountRecord) => ({
  spam_enabled: r.spam_enabled === 1,
  spam_rule: r.spam_rule,
  spam_hits: String(r.spam_hits),
  spam_delete_after: String(r.spam_delete_after),
});

export function SpamFilterForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const shared = useT(editorSharedMessages);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(record),
  });
  const save = useSection(form, record, FIELDS, { values: valuesOf });
  const errors = form.formState.errors;
  return (
    <SectionForm title={t("filterTitle")} description={t("filterDesc")} save={save}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Checkbox
          className="sm:col-span-2"
          label={t("spam_enabled")}
          error={errorText(errors.spam_enabled, t("fixFields"))}
          {...form.register("spam_enabled")}
        />
        <Select
          label={shared("spam_rule")}
          error={errorText(errors.spam_rule, t("fixFields"))}
          options={[
            { value: "move", label: shared("ruleMove") },
            { value: "tag", label: shared("ruleTag") },
          ]}
          {...form.register("spam_rule")}
        />
        <Select
          label={shared("spam_hits")}
          hint={t("hitsHint")}
          error={errorText(errors.spam_hits, t("fixFields"))}
          options={[2, 5, 7, 9].map((h) => ({ value: String(h), label: shared(`hits${h}` as "hits2") }))}
          {...form.register("spam_hits")}
        />
        <TextField
          label={shared("spam_delete_after")}
          hint={shared("spamDeleteHint")}
          inputMode="numeric"
          error={errorText(errors.spam_delete_after, t("deleteAfterInvalid"))}
          {...form.register("spam_delete_after")}
        />
      </div>
    </SectionForm>
  );
}
