"use client";
// The frame every /me section shares: its card, its form, how its last save went and its save button.
import type { ReactNode } from "react";
import { Button, Card } from "@/components";
import type { useSaveForm } from "@/lib/client/hooks/use-save-form";
import { useT } from "@/lib/i18n";
import { FormOutcome } from "../_editors/form-outcome";
import { meMessages } from "./messages";

export function SectionForm({
  title,
  description,
  save: { onSubmit, outcome, submitting },
  children,
}: {
  title: string;
  description: string;
  /** The section's save flow, as useSaveForm (or useSection) returns it. */
  save: Pick<ReturnType<typeof useSaveForm>, "onSubmit" | "outcome" | "submitting">;
  children: ReactNode;
}) {
  const t = useT(meMessages);
  return (
    <Card title={title} description={description}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {children}
        <FormOutcome outcome={outcome} />
        <Button type="submit" loading={submitting}>
          {submitting ? t("saving") : t("save")}
        </Button>
      </form>
    </Card>
  );
}
