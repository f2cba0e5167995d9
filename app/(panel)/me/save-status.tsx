"use client";
// What a section's save did: a success note, or an error that says what to do next.
import { Alert } from "@/components";
import { useT } from "@/lib/i18n";
import { meMessages } from "./messages";

export function SaveStatus({ saved, error, successText }: { saved: boolean; error: string | null | undefined; successText?: string }) {
  const t = useT(meMessages);
  if (error !== undefined && error !== null) {
    return (
      <Alert tone="error" title={t("saveFailed")}>
        {error === "" ? t("fixFields") : error}
      </Alert>
    );
  }
  if (saved) return <Alert tone="success">{successText ?? t("saved")}</Alert>;
  return null;
}
