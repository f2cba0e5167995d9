"use client";
// The five anti-spam lists of the account, one address or domain a line.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { TextArea } from "@/components";
import { errorDetailText } from "@/lib/errors/details";
import { useLocale, useT } from "@/lib/i18n";
import { issueAttributes } from "@/lib/schemas/fields";
import { accountFields } from "@/lib/schemas/account";
import { SPAM_LISTS as FIELDS, type SpamList as SpamField } from "@/lib/schemas/spam";
import { editorSharedMessages } from "../_editors/messages";
import { SectionForm } from "./section-form";
import { meMessages } from "./messages";
import { errorText, useSection } from "./use-section";
import { lines, type MyAccountRecord } from "./use-my-account";

const asLines = (field: SpamField) => z.string().transform(lines).pipe(accountFields[field].schema);
const schema = z.object(
  Object.fromEntries(FIELDS.map((f) => [f, asLines(f)])) as { [K in SpamField]: ReturnType<typeof asLines> },
);

const valuesOf = (r: MyAccountRecord) =>
  Object.fromEntries(FIELDS.map((f) => [f, r[f].join("\n")])) as Record<SpamField, string>;

export function SpamListsForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const shared = useT(editorSharedMessages);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(record),
  });
  const save = useSection(form, record, FIELDS, { values: valuesOf });
  const errors = form.formState.errors;
  const locale = useLocale();
  // The rule, then the lines that break it (quoted), as the API itself would say.
  const explain = (f: SpamField) => {
    const parsed = asLines(f).safeParse(form.getValues(f));
    const detail = parsed.success ? "" : errorDetailText(issueAttributes(parsed.error.issues), locale);
    return detail ? `${t("spamInvalid")} ${detail}` : t("spamInvalid");
  };
  return (
    <SectionForm title={t("spamTitle")} description={t("spamDesc")} save={save}>
      <div className="grid gap-4 md:grid-cols-2">
        {FIELDS.map((f) => (
          <TextArea
            key={f}
            label={shared(f)}
            hint={shared("spamListHint")}
            rows={4}
            autoCapitalize="none"
            spellCheck={false}
            error={errorText(errors[f], errors[f] ? explain(f) : "")}
            {...form.register(f)}
          />
        ))}
      </div>
    </SectionForm>
  );
}
