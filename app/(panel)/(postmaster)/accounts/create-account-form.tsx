"use client";
// Creates an account: name, password, description, capacity, checked with the API's own rules.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert, Button, TextField } from "@/components";
import { useCreateAccount } from "@/lib/client/hooks/accounts";
import { applyApiError, fieldSpecResolver } from "@/lib/client/hooks/use-field-form";
import { errorCatalog } from "@/lib/errors/catalog";
import { useT } from "@/lib/i18n";
import { accountFields } from "@/lib/schemas/account";
import { isAccountName, passwordSchema } from "@/lib/schemas/common";
import { accountMessages } from "./messages";

interface CreateValues {
  name: string;
  password: string;
  description: string;
  capacity: string;
}
const FIELDS = ["name", "password", "description", "capacity"] as const;
const resolver = fieldSpecResolver<CreateValues>(accountFields, ["description", "capacity"], [], {
  name: z.string().trim().toLowerCase().refine(isAccountName, errorCatalog.invalidAccountName.message),
  // Required on create: the spec's "" (keep unchanged) does not apply.
  password: passwordSchema(),
});

export function CreateAccountForm({ domain, onDone }: { domain: string; onDone: (email: string) => void }) {
  const t = useT(accountMessages);
  const create = useCreateAccount(domain);
  const [formError, setFormError] = useState("");
  const { register, handleSubmit, setError, reset, formState } = useForm<CreateValues>({
    resolver,
    defaultValues: { name: "", password: "", description: "", capacity: "1024" },
  });
  const { errors } = formState;
  const onSubmit = handleSubmit(async (values) => {
    setFormError("");
    try {
      const record = await create.mutateAsync(values as unknown as { name: string } & Record<string, unknown>);
      reset();
      onDone(record.email);
    } catch (err) {
      setFormError(applyApiError(err, setError, FIELDS));
    }
  });
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <TextField
        label={t("name")}
        hint={`${t("nameHint")} @${domain}`}
        autoComplete="off"
        error={errors.name?.message}
        {...register("name")}
      />
      <TextField
        label={t("password")}
        type="password"
        autoComplete="new-password"
        hint={t("passwordHint")}
        error={errors.password?.message}
        {...register("password")}
      />
      <TextField label={t("description")} maxLength={48} error={errors.description?.message} {...register("description")} />
      <TextField
        label={t("capacity")}
        inputMode="numeric"
        hint={t("capacityHint")}
        error={errors.capacity?.message}
        {...register("capacity")}
      />
      {formError && <Alert tone="error" className="sm:col-span-2 lg:col-span-4">{formError}</Alert>}
      <div className="sm:col-span-2 lg:col-span-4">
        <Button type="submit" loading={formState.isSubmitting}>
          {t("create")}
        </Button>
      </div>
    </form>
  );
}
