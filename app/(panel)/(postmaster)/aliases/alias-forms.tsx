"use client";
// Creating an alias, and changing one alias's target in place; both checked with the alias field rules.
import { useForm } from "react-hook-form";
import { Button, TextField } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useSaveAlias, type AliasItem } from "@/lib/client/hooks/aliases";
import { lazyResolver, type FieldFormContext } from "@/lib/client/hooks/field-form";
import { useSaveForm } from "@/lib/client/hooks/use-save-form";
import { useT } from "@/lib/i18n";
import { FormOutcome } from "../../_editors/form-outcome";
import { CreateForm, type CreateFormProps } from "../_postmaster/create-form";
import type { AliasValues as Values } from "./alias-schema";
import { aliasMessages } from "./messages";

// The rules (and zod with them) load when a form is first focused or validated, not with the table.
const createResolver = lazyResolver<Values>(() => import("./alias-schema").then((m) => m.createAliasResolver));
const targetResolver = lazyResolver<Values>(() => import("./alias-schema").then((m) => m.aliasTargetResolver));

export function CreateAliasForm({ domain, onDone, onAttempt }: CreateFormProps) {
  const t = useT(aliasMessages);
  const errorText = useErrorText();
  const save = useSaveAlias(domain);
  const form = useForm<Values, FieldFormContext>({
    context: { locale: errorText.locale },
    resolver: createResolver,
    defaultValues: { name: "", target: "" },
  });
  const { register, reset, formState } = form;
  const { onSubmit, outcome, clearOutcome } = useSaveForm(form, {
    fields: ["name", "target"],
    save: ({ name, target }) => save.mutateAsync({ name, body: { target }, create: true }),
    onSaved: (alias) => {
      // Empty again for the next alias (a bare reset() would restore what was just saved: the form's defaults
      // became the saved values).
      reset({ name: "", target: "" });
      clearOutcome();
      onDone(alias.email);
    },
  });
  return (
    <CreateForm
      form={form}
      nameField={register("name")}
      resolver={createResolver}
      domain={domain}
      t={t}
      onSubmit={onSubmit}
      onAttempt={onAttempt}
    >
      <TextField
        label={t("target")}
        hint={t("targetHint")}
        type="email"
        autoComplete="off"
        error={formState.errors.target?.message}
        {...register("target")}
      />
      <Button type="submit" className="sm:mt-6" loading={formState.isSubmitting}>
        {t("create")}
      </Button>
      {outcome && !outcome.ok && <FormOutcome outcome={outcome} className="sm:col-span-3" />}
    </CreateForm>
  );
}

export function EditTargetForm({
  domain,
  alias,
  onDone,
  onCancel,
}: {
  domain: string;
  alias: AliasItem;
  onDone: () => void;
  onCancel: () => void;
}) {
  const t = useT(aliasMessages);
  const errorText = useErrorText();
  const save = useSaveAlias(domain);
  const form = useForm<Values, FieldFormContext>({
    context: { locale: errorText.locale },
    resolver: targetResolver,
    defaultValues: { name: alias.name, target: alias.target },
  });
  const { register, formState } = form;
  const { onSubmit, outcome } = useSaveForm(form, {
    fields: ["target"],
    save: ({ target }) => save.mutateAsync({ name: alias.name, body: { target } }),
    onSaved: () => onDone(),
  });
  // What fits no field (say, the alias was deleted meanwhile) shows under the one field of this inline form.
  const formError = outcome && !outcome.ok && !formState.errors.target ? outcome.text : "";
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(e) => e.key === "Escape" && onCancel()}
      onFocus={targetResolver.preload}
      className="flex flex-wrap items-start gap-2"
    >
      {/* Under the address on phones the field takes the cell's whole width and the buttons wrap below it: a minimum
          width there (192 px, for the target column from md up) stretched the table past a 375 px screen. */}
      <TextField
        className="w-full min-w-0 md:w-auto md:min-w-48 md:flex-1 [&_label]:sr-only"
        label={t("newTarget", { email: alias.email })}
        type="email"
        autoFocus
        error={formState.errors.target?.message ?? (formError || undefined)}
        {...register("target")}
      />
      <Button type="submit" loading={formState.isSubmitting}>
        {t("save")}
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        {t("cancel")}
      </Button>
    </form>
  );
}
