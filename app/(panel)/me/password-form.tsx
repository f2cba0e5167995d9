"use client";
// Password change: the current password first (the server checks it, lib/server/caller/own-password.ts), then the new one
// with the service's password rules checked live while typing (passwordProblems is the very function the API
// validates with).
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { TextField } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import { accountKeys } from "@/lib/client/hooks/accounts";
import { useSaveForm } from "@/lib/client/hooks/use-save-form";
import type { ErrorBody } from "@/lib/errors/api-error";
import { useT } from "@/lib/i18n";
import type { AccountRecord } from "@/lib/schemas/account";
import { accountFields } from "@/lib/schemas/account";
import { passwordProblems } from "@/lib/schemas/common";
import { SectionForm } from "./section-form";
import { meMessages, type MeKey } from "./messages";
import { errorText } from "./use-section";
import type { MyAccountRecord } from "./use-my-account";

const FIELDS = ["current_password", "password", "password_retype"] as const;
const RULES: [ReturnType<typeof passwordProblems>[number], MeKey][] = [
  ["length", "ruleLength"],
  ["letter", "ruleLetter"],
  ["digitOrSpecial", "ruleDigitOrSpecial"],
  ["characters", "ruleCharacters"],
];

const schema = z
  .object({
    current_password: z.string().min(1),
    // Here the password is required: an empty one would mean "unchanged" to the API.
    password: z.string().min(1).pipe(accountFields.password.schema),
    password_retype: accountFields.password_retype.schema,
  })
  .refine((v) => v.password === v.password_retype, { path: ["password_retype"] });

const EMPTY = { current_password: "", password: "", password_retype: "" };

/** PUT /api/panel/password: the panel's own endpoint (the v1 API has no current-password field). */
async function changePassword(body: Record<string, string>): Promise<AccountRecord> {
  const res = await fetch("/api/panel/password", {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await res.json().catch(() => null)) as unknown;
  if (!res.ok)
    throw new PanelApiError(
      res.status,
      (data ?? { code: String(res.status), message: res.statusText, category: "internal" }) as ErrorBody,
    );
  return data as AccountRecord;
}

export function PasswordForm({ record }: { record: MyAccountRecord }) {
  const t = useT(meMessages);
  const qc = useQueryClient();
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const save = useSaveForm(form, {
    fields: FIELDS,
    save: (values) => changePassword(values),
    onSaved: (saved) => {
      form.reset(EMPTY);
      qc.setQueryData(accountKeys.detail(record.domain, record.name), saved);
    },
    texts: { saved: t("pwChanged") },
  });
  const errors = form.formState.errors;
  const password = useWatch({ control: form.control, name: "password" }) ?? "";
  const problems = passwordProblems(password);
  return (
    <SectionForm title={t("pwTitle")} description={t("pwDesc")} save={save}>
      <input type="text" name="username" autoComplete="username" value={record.email} readOnly hidden />
      <TextField
        type="password"
        label={t("pwCurrent")}
        autoComplete="current-password"
        error={errorText(errors.current_password, t("pwCurrentMissing"))}
        {...form.register("current_password")}
      />
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
            // Nothing typed yet: no rule is met or unmet.
            const ok = password === "" ? null : !problems.includes(problem);
            return (
              <li
                key={problem}
                className={ok === null ? "text-gray-800" : ok ? "text-green-800" : "text-red-800"}
                data-rule={problem}
                data-ok={ok ?? undefined}
              >
                <span aria-hidden="true" className="inline-block w-5">
                  {ok === null ? "•" : ok ? "✓" : "✗"}
                </span>
                {t(label)}
                {ok !== null && <span className="sr-only"> – {ok ? t("pwRuleOk") : t("pwRuleBad")}</span>}
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
    </SectionForm>
  );
}
