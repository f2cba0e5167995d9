"use client";
// A modal confirmation built on the native <dialog>: focus is trapped and restored by the browser, Escape cancels.
// What a question describes may load after it opens (what goes with accounts being deleted): it then stands in a box
// of fixed height, so that neither button moves under a pointer when it arrives, and the confirm button cannot be
// pressed before it is shown.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useT, type Messages } from "@/lib/i18n";
import { Button } from "./button";

const messages: Messages<"confirm" | "cancel"> = {
  pl: { confirm: "Potwierdź", cancel: "Anuluj" },
  en: { confirm: "Confirm", cancel: "Cancel" },
};

/** Where the details a question describes are: on their way, shown, or not read (the dialog says why). */
export type DetailsState = "loading" | "ready" | "failed";

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
  /** Details that load after the dialog opens, in a box of fixed height (scrolled when longer) below the description.
   *  Until `state` is "ready" the confirm button is disabled (and marked busy while "loading"); Cancel stays. */
  details?: { state: DetailsState; content: ReactNode };
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
  details,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const t = useT(messages);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();
  const waiting = details?.state === "loading";

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
      aria-describedby={description || details ? descId : undefined}
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
        {(description || details) && (
          <div id={descId} className="mt-2 text-sm text-gray-800">
            {description}
            {details && (
              // Focusable so that a keyboard can scroll it; 15 rem on a desktop, a third of a phone's height.
              <div
                tabIndex={0}
                aria-busy={waiting}
                className="mt-3 h-[min(15rem,35dvh)] overflow-y-auto rounded-md border border-gray-300 p-3"
              >
                {details.content}
              </div>
            )}
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
          <Button
            variant={danger ? "danger" : "primary"}
            onClick={onConfirm}
            loading={pending}
            disabled={details && details.state !== "ready"}
            aria-busy={waiting || pending || undefined}
          >
            {confirmLabel ?? t("confirm")}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
