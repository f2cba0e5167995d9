"use client";
// The frame every /me section shares: its card, its form, how its last save went and its save button.
import type { BaseSyntheticEvent, ReactNode } from "react";
import { Button, Card } from "@/components";
import type { SaveOutcome } from "@/lib/client/hooks/use-save-form";
import { useT } from "@/lib/i18n";
import { FormOutcome } from "../_editors/form-outcome";
import { meMessages } from "./messages";

export function SectionForm({
  title,
  description,
  onSubmit,
  status,
  pending,
  children,
}: {
  title: string;
  description: string;
  onSubmit: (e?: BaseSyntheticEvent) => void;
  status: SaveOutcome;
  pending: boolean;
  children: ReactNode;
}) {
  const t = useT(meMessages);
  return (
    <Card title={title} description={description}>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {children}
        <FormOutcome outcome={status} />
        <Button type="submit" loading={pending}>
          {pending ? t("saving") : t("save")}
        </Button>
      </form>
    </Card>
  );
}
