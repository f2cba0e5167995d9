"use client";
// The frame of the postmaster's create forms (account, alias, list): the form's own checks instead of the browser's,
// its rules loaded when it first gets focus, and first the new name, with the domain it goes under in the hint.
import type { FormEvent, ReactNode } from "react";
import type { UseFormRegisterReturn, UseFormReturn } from "react-hook-form";
import { TextField } from "@/components";
import type { FieldFormContext } from "@/lib/client/hooks/field-form";

/** What the account and alias tables give their create forms. */
export interface CreateFormProps {
  domain: string;
  /** Called with the new address once it is created. */
  onDone: (email: string) => void;
  /** Called at every submit, so the page drops an earlier success banner before the new outcome. */
  onAttempt?: () => void;
}

export function CreateForm<T extends { name: string }>({
  form,
  nameField,
  resolver,
  domain,
  t,
  onSubmit,
  onAttempt,
  wide = false,
  children,
}: {
  form: UseFormReturn<T, FieldFormContext>;
  /**
   * `register("name")`, called by the form as a prop (evaluated before its children): react-hook-form focuses the
   * first invalid field in the order the fields were registered, and the name comes first on screen.
   */
  nameField: UseFormRegisterReturn<"name">;
  resolver: { preload: () => void };
  domain: string;
  /** The form's texts; it must have "name" and "nameHint" (with the {domain} the name goes under). */
  t: (key: "name" | "nameHint", vars?: Record<string, string>) => string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => unknown;
  /** Called at every submit, before the checks, so the page drops an earlier success banner. */
  onAttempt?: () => void;
  /** Four fields: two columns on small screens, four on large; else the fields and the button share one row. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        onAttempt?.();
        void onSubmit(e);
      }}
      onFocus={resolver.preload}
      className={
        wide ? "grid gap-3 sm:grid-cols-2 lg:grid-cols-4" : "grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
      }
    >
      <TextField
        label={t("name")}
        hint={t("nameHint", { domain })}
        autoComplete="off"
        error={form.formState.errors.name?.message as string | undefined}
        {...nameField}
      />
      {children}
    </form>
  );
}
