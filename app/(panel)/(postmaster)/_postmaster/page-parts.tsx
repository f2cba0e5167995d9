// Pieces every postmaster page repeats: the page heading with its intro line, the "could not load" alert with a
// retry button, an editor's card of fields, and the save row under an editor form. Texts come from each page's own
// messages, so the wording stays per page.
import { useEffect, useRef, type ReactNode } from "react";
import { Alert, Button, Card } from "@/components";
import type { SaveOutcome } from "@/lib/client/hooks/use-save-form";
import { revealAboveStickyBar, STICKY_SAVE_BAR } from "@/lib/client/reveal-field";
import { FormOutcome } from "../../_editors/form-outcome";

export function PageHeader({ title, intro }: { title: string; intro: string }) {
  return (
    <header>
      <h1 className="text-2xl font-semibold text-gray-900 wrap-anywhere">{title}</h1>
      <p className="text-sm text-gray-700">{intro}</p>
    </header>
  );
}

export function LoadFailedAlert({
  text,
  retryLabel,
  onRetry,
}: {
  text: string;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <Alert tone="error">
      {text}{" "}
      <Button variant="ghost" onClick={onRetry}>
        {retryLabel}
      </Button>
    </Alert>
  );
}

/**
 * An editor's card of fields: one column on phones, two side by side from the sm breakpoint, and three (`columns`)
 * from lg: at 768 px three selects cut "Domyślnie (teraz włączony)" short.
 */
export function FieldCard(props: { title: string; description: string; columns?: 2 | 3; children: ReactNode }) {
  return (
    <Card title={props.title} description={props.description}>
      <div className={`grid gap-3 sm:grid-cols-2 ${props.columns === 3 ? "lg:grid-cols-3" : ""}`}>{props.children}</div>
    </Card>
  );
}

/** The save row under an editor form: the button, "unsaved changes" while dirty, then the outcome of the save. */
export function SaveBar(props: {
  saveLabel: string;
  unsavedLabel: string;
  /** The form's state (react-hook-form's formState). */
  state: { isSubmitting: boolean; isDirty: boolean };
  status: SaveOutcome;
  /** Long editors keep the row on screen while scrolling. */
  sticky?: boolean;
}) {
  const { status, sticky } = props;
  const bar = useRef<HTMLDivElement>(null);
  // A sticky bar must never hide the field being edited: when focus lands on a field under the bar (Tab, or an
  // error's focus), the page scrolls it, with its hint and error, up above the bar (lib/client/reveal-field.ts).
  useEffect(() => {
    const form = bar.current?.closest("form");
    if (!sticky || !form) return;
    const onFocus = (e: FocusEvent) => revealAboveStickyBar(e.target as HTMLElement);
    form.addEventListener("focusin", onFocus);
    return () => form.removeEventListener("focusin", onFocus);
  }, [sticky]);
  return (
    <div
      ref={bar}
      {...(sticky ? { [STICKY_SAVE_BAR]: "" } : {})}
      // Sticky: edged and padded as the cards above it (Card: a 1 px border, p-4 sm:p-6), so "Save" lines up with
      // their fields instead of the cards' outer edge.
      className={`flex flex-wrap items-center gap-3${sticky ? " sticky bottom-0 z-10 rounded-t-lg border-x border-t border-gray-300 bg-white px-4 py-3 shadow-[0_-2px_6px_rgba(0,0,0,0.08)] sm:px-6" : ""}`}
    >
      <Button type="submit" loading={props.state.isSubmitting}>
        {props.saveLabel}
      </Button>
      {props.state.isDirty && !status && <span className="text-sm text-gray-700">{props.unsavedLabel}</span>}
      <FormOutcome outcome={status} className="flex-1" />
    </div>
  );
}
