"use client";
// Password change, with the service's password rules checked live while typing (passwordProblems is the very
// function the API validates with).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Button, Card, TextField } from "@/components";
import { useT } from "@/lib/i18n";
import { accountFields } from "@/lib/schemas/account";
import { passwordProblems } from "@/lib/schemas/common";
import { meMessages, type MeKey } from "./messages";
import { SaveStatus } from "./save-status";
import { errorText, useSection } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const FIELDS = ["password", "password_retype"] as const;
const RULES: [ReturnType<typeof passwordProblems>[number], MeKey][] = [
  ["length", "ruleLength"],
  ["letter", "ruleLetter"],
  ["digitOrSpecial", "ruleDigitOrSpecial"],
  ["characters", "ruleCharacters"],
];

const schema = z
  .object({
    // Here the password is required: an empty one would mean "unchanged" to the API.
    password: z.string().min(1).pipe(accountFields.password.schema),
    password_retype: accountFields.password_retype.schema,
  })
  .refine((v) => v.password === v.password_retype, { path: ["password_retype"] });

export function PasswordForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { password: "", password_retype: "" },
  });
  const { onSubmit, status, pending } = useSection(form, record, FIELDS, (v) => ({ ...v }), () =>
    form.reset({ password: "", password_retype: "" }),
  );
  const errors = form.formState.errors;
  const password = useWatch({ control: form.control, name: "password" }) ?? "";
  const problems = passwordProblems(password);
  return (
    <Card title={t("pwTitle")} description={t("pwDesc")}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <input type="text" name="username" autoComplete="username" value={record.email} readOnly hidden />
        <TextField
          type="password"
          label={t("pwNew")}
          autoComplete="new-password"
          aria-describedby="password-rules"
          error={errorText(errors.password, t("pwInvalid"))}
          {...form.register("password")}
        />
        <div id="password-rules">
          <p className="text-sm font-medium text-gray-900">{t("pwRules")}</p>
          <ul className="mt-1 space-y-1 text-sm">
            {RULES.map(([problem, label]) => {
              const ok = password !== "" && !problems.includes(problem);
              return (
                <li key={problem} className={ok ? "text-green-800" : "text-gray-800"} data-rule={problem} data-ok={ok}>
                  <span aria-hidden="true" className="inline-block w-5">{ok ? "✓" : "•"}</span>
                  {t(label)}
                  <span className="sr-only"> – {ok ? t("pwRuleOk") : t("pwRuleBad")}</span>
                </li>
              );
            })}
          </ul>
        </div>
        <TextField
          type="password"
          label={t("pwRetype")}
          autoComplete="new-password"
          error={errorText(errors.password_retype, t("pwMismatch"))}
          {...form.register("password_retype")}
        />
        <SaveStatus saved={status.saved} error={status.error} successText={t("pwChanged")} />
        <Button type="submit" loading={pending}>{pending ? t("saving") : t("save")}</Button>
      </form>
    </Card>
  );
}
