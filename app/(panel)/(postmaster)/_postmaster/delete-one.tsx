"use client";
// Deleting one row of a table (an alias, a mailing list) after a confirmation: the row asked about, the dialog
// with the API's error if the delete fails, and the notice once it is gone.
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
  confirm: (email: string) => string;
  deleted: (email: string) => string;
}

export function useDeleteOne<Item extends { name: string; email: string }>(
  remove: DeleteMutation,
  texts: DeleteTexts,
  onDeleted: (notice: string) => void,
): { ask: (item: Item) => void; dialog: ReactNode } {
  const errorText = useErrorText();
  const [item, setItem] = useState<Item | null>(null);

  const confirm = async () => {
    if (!item) return;
    try {
      await remove.mutateAsync([item.name]);
      onDeleted(texts.deleted(item.email));
      setItem(null);
    } catch {
      // shown in the dialog
    }
  };

  const dialog = (
    <ConfirmDialog
      open={item !== null}
      danger
      title={texts.delete}
      description={item ? texts.confirm(item.email) : undefined}
      confirmLabel={texts.delete}
      pending={remove.isPending}
      error={remove.error ? errorText.failure(remove.error) : undefined}
      onConfirm={() => void confirm()}
      onCancel={() => {
        remove.reset();
        setItem(null);
      }}
    />
  );
  return { ask: setItem, dialog };
}
