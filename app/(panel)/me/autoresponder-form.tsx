"use client";
// Autoresponder: on/off, optional start and end dates, and the reply text.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button, Card, Select, TextArea, TextField } from "@/components";
import { useT } from "@/lib/i18n";
import { accountFields } from "@/lib/schemas/account";
import { meMessages } from "./messages";
import { SaveStatus } from "./save-status";
import { errorText, useSection } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const FIELDS = ["autoresponder_mode", "autoresponder_start_date", "autoresponder_end_date", "autoresponder_body"] as const;
const BODY_MAX = 10000;

const schema = z.object({
  autoresponder_mode: accountFields.autoresponder_mode.schema,
  autoresponder_start_date: accountFields.autoresponder_start_date.schema,
  autoresponder_end_date: accountFields.autoresponder_end_date.schema,
  autoresponder_body: accountFields.autoresponder_body.schema,
});

export function AutoresponderForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: {
      autoresponder_mode: String(record.autoresponder_mode),
      autoresponder_start_date: record.autoresponder_start_date,
      autoresponder_end_date: record.autoresponder_end_date,
      autoresponder_body: record.autoresponder_body,
    },
  });
  const { onSubmit, status, pending } = useSection(form, record, FIELDS, (v) => ({ ...v }));
  const errors = form.formState.errors;
  return (
    <Card title={t("arTitle")} description={t("arDesc")}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Select
          label={t("arMode")}
          options={[
            { value: "0", label: t("arOff") },
            { value: "1", label: t("arOn") },
          ]}
          error={errorText(errors.autoresponder_mode, t("fixFields"))}
          {...form.register("autoresponder_mode")}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            type="date"
            label={t("arStart")}
            hint={t("arDateHint")}
            error={errorText(errors.autoresponder_start_date, t("invalidDate"))}
            {...form.register("autoresponder_start_date")}
          />
          <TextField
            type="date"
            label={t("arEnd")}
            hint={t("arDateHint")}
            error={errorText(errors.autoresponder_end_date, t("invalidDate"))}
            {...form.register("autoresponder_end_date")}
          />
        </div>
        <TextArea
          label={t("arBody")}
          rows={6}
          maxLength={BODY_MAX}
          error={errorText(errors.autoresponder_body, t("tooLong", { n: BODY_MAX }))}
          {...form.register("autoresponder_body")}
        />
        <SaveStatus saved={status.saved} error={status.error} />
        <Button type="submit" loading={pending}>{pending ? t("saving") : t("save")}</Button>
      </form>
    </Card>
  );
}
