"use client";
// Deleting rows of a table (accounts, aliases, mailing lists) after a confirmation: which names are asked about,
// the dialog with the API's error if the delete fails, and the notice once they are gone.
import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";

/** What the dialog needs of a delete mutation (the table's own useDelete… hook). */
interface DeleteMutation {
  mutateAsync: (names: string[]) => Promise<unknown>;
  isPending: boolean;
  error: Error | null;
  reset: () => void;
}

interface DeleteTexts {
  delete: string;
  confirm: (names: string[]) => string;
  deleted: (names: string[]) => string;
}

export function useConfirmedDelete(
  remove: DeleteMutation,
  texts: DeleteTexts,
  onDeleted: (notice: string) => void,
): { ask: (names: string[]) => void; dialog: ReactNode } {
  const errorText = useErrorText();
  const [names, setNames] = useState<string[] | null>(null);

  const confirm = async () => {
    if (!names) return;
    try {
      await remove.mutateAsync(names);
      onDeleted(texts.deleted(names));
      setNames(null);
    } catch {
      // shown in the dialog
    }
  };

  const dialog = (
    <ConfirmDialog
      open={names !== null}
      danger
      title={texts.delete}
      description={names ? texts.confirm(names) : undefined}
      confirmLabel={texts.delete}
      pending={remove.isPending}
      error={remove.error ? errorText.failure(remove.error) : undefined}
      onConfirm={() => void confirm()}
      onCancel={() => {
        remove.reset();
        setNames(null);
      }}
    />
  );
  return { ask: setNames, dialog };
}
