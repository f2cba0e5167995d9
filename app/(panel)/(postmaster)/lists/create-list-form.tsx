"use client";
// Creates a mailing list (name and description; the templates get their defaults) and opens its editor.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useLeaveGuard } from "@/lib/client/hooks/use-save-form";
import { Alert, Button, TextField } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useSaveMailingList } from "@/lib/client/hooks/mailing-lists";
import { lazyResolver, placeApiError, type FieldFormContext } from "@/lib/client/hooks/field-form";
import { useT } from "@/lib/i18n";
import type { CreateListValues as Values } from "./create-list-schema";
import { CreateForm } from "../_postmaster/create-form";
import { listMessages } from "./messages";

// The rules (and zod with them) load when the form is first focused or validated, not with the table.
const resolver = lazyResolver<Values>(() => import("./create-list-schema").then((m) => m.createListResolver));

export function CreateListForm({ domain }: { domain: string }) {
  const t = useT(listMessages);
  const errorText = useErrorText();
  const router = useRouter();
  const save = useSaveMailingList(domain);
  const [formError, setFormError] = useState("");
  const form = useForm<Values, FieldFormContext>({
    context: { locale: errorText.locale },
    resolver,
    defaultValues: { name: "", description: "" },
  });
  const { register, handleSubmit, setError, formState } = form;
  useLeaveGuard(formState);
  const onSubmit = handleSubmit(async ({ name, description }) => {
    setFormError("");
    try {
      const list = await save.mutateAsync({ name, body: { description }, create: true });
      router.push(`/lists/${encodeURIComponent(list.name)}?created=1`);
    } catch (err) {
      setFormError(placeApiError(err, setError, ["name", "description"], errorText.locale) ?? "");
    }
  });
  return (
    <CreateForm form={form} nameField={register("name")} resolver={resolver} domain={domain} t={t} onSubmit={onSubmit}>
      <TextField
        label={t("description")}
        maxLength={255}
        error={formState.errors.description?.message}
        {...register("description")}
      />
      <Button type="submit" className="sm:mt-6" loading={formState.isSubmitting}>
        {t("create")}
      </Button>
      {formError && (
        <Alert tone="error" className="sm:col-span-3">
          {formError}
        </Alert>
      )}
    </CreateForm>
  );
}
