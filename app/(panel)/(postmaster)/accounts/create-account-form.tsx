"use client";
// Creates an account: name, password, description, capacity, checked with the API's own rules.
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useLeaveGuard } from "@/lib/client/hooks/use-save-form";
import { Alert, Button, TextField } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useSaveAccount } from "@/lib/client/hooks/accounts";
import { lazyResolver, placeApiError, type FieldFormContext } from "@/lib/client/hooks/field-form";
import { useT } from "@/lib/i18n";
import type { CreateValues } from "./create-account-schema";
import { CreateForm, type CreateFormProps } from "../_postmaster/create-form";
import { accountMessages } from "./messages";

const FIELDS = ["name", "password", "description", "capacity"] as const;
// zod (~50 kB gzipped) is imported on the first submit, or as soon as the form gets focus: not on the table's first
// load. The rules are the same ones the API applies.
const resolver = lazyResolver<CreateValues>(() =>
  import("./create-account-schema").then((m) => m.createAccountResolver),
);

export function CreateAccountForm({ domain, onDone, onAttempt }: CreateFormProps) {
  const t = useT(accountMessages);
  const errorText = useErrorText();
  const hydrated = useHydrated();
  const create = useSaveAccount(domain);
  const [formError, setFormError] = useState("");
  const form = useForm<CreateValues, FieldFormContext>({
    resolver,
    context: { locale: errorText.locale },
    defaultValues: { name: "", password: "", description: "", capacity: "1024" },
  });
  const { register, handleSubmit, setError, reset, setFocus, formState } = form;
  useLeaveGuard(formState);
  const { errors } = formState;
  // The form appears when the postmaster opens it (accounts-table.tsx): start typing the name at once.
  useEffect(() => setFocus("name"), [setFocus]);
  const onSubmit = handleSubmit(async (values) => {
    setFormError("");
    onAttempt?.();
    try {
      const { name, ...body } = values;
      const record = await create.mutateAsync({ name, body, create: true });
      reset({ name: "", password: "", description: "", capacity: "1024" });
      onDone(record.email);
    } catch (err) {
      setFormError(placeApiError(err, setError, FIELDS, errorText.locale) ?? "");
    }
  });
  return (
    <CreateForm
      form={form}
      nameField={register("name")}
      resolver={resolver}
      domain={domain}
      t={t}
      onSubmit={onSubmit}
      onAttempt={onAttempt}
      wide
    >
      <TextField
        label={t("password")}
        type="password"
        autoComplete="new-password"
        hint={t("passwordHint")}
        error={errors.password?.message}
        {...register("password")}
      />
      <TextField
        label={t("description")}
        maxLength={48}
        error={errors.description?.message}
        {...register("description")}
      />
      <TextField
        label={t("capacity")}
        inputMode="numeric"
        hint={t("capacityHint")}
        error={errors.capacity?.message}
        {...register("capacity")}
      />
      {formError && (
        <Alert tone="error" className="sm:col-span-2 lg:col-span-4">
          {formError}
        </Alert>
      )}
      <div className="sm:col-span-2 lg:col-span-4">
        {/* Not before hydration: a native submit would put the password in the URL (lib/client/use-hydrated.ts). */}
        <Button type="submit" loading={formState.isSubmitting} disabled={!hydrated}>
          {t("create")}
        </Button>
      </div>
    </CreateForm>
  );
}
