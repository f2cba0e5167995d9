"use client";
// A modal confirmation built on the native <dialog>: focus is trapped and restored by the browser, Escape cancels.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useT, type Messages } from "@/lib/i18n";
import { Button } from "./button";

const messages: Messages<"confirm" | "cancel"> = {
  pl: { confirm: "Potwierdź", cancel: "Anuluj" },
  en: { confirm: "Confirm", cancel: "Cancel" },
};

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Red confirm button for destructive actions (deleting). */
  danger?: boolean;
  /** While the confirmed action runs: the confirm button spins and both are disabled. */
  pending?: boolean;
  /** An error from the action, shown inside the dialog so the user can retry or cancel. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel,
  danger = false,
  pending = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT(messages);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        if (!pending) onCancel();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg bg-white p-0 shadow-xl backdrop:bg-black/50"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-lg font-semibold text-gray-900">
          {title}
        </h2>
        {description && (
          <div id={descId} className="mt-2 text-sm text-gray-800">
            {description}
          </div>
        )}
        {error && (
          <div role="alert" className="mt-3 rounded-md border-l-4 border-red-700 bg-red-50 p-3 text-sm text-red-900">
            {error}
          </div>
        )}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onCancel} disabled={pending} autoFocus>
            {cancelLabel ?? t("cancel")}
          </Button>
          <Button variant={danger ? "danger" : "primary"} onClick={onConfirm} loading={pending}>
            {confirmLabel ?? t("confirm")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
