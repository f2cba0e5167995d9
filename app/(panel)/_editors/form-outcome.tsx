"use client";
// How the last save went, under an editor: the text people read, and the error codes folded away for support.
import { Alert } from "@/components";
import type { SaveOutcome } from "@/lib/client/hooks/use-save-form";
import { useT } from "@/lib/i18n";
import { editorSharedMessages } from "./messages";

export function FormOutcome({ outcome, className = "" }: { outcome: SaveOutcome; className?: string }) {
  const t = useT(editorSharedMessages);
  if (!outcome) return null;
  return (
    <Alert tone={outcome.ok ? "success" : "error"} className={className}>
      {outcome.text}
      {!!outcome.codes?.length && (
        <details className="mt-1 text-xs">
          <summary className="cursor-pointer">{t("details")}</summary>
          <span className="font-mono">{outcome.codes.join(", ")}</span>
        </details>
      )}
    </Alert>
  );
}
