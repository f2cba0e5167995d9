// Pieces every postmaster page repeats: the page heading with its intro line, the "could not load" alert
// with a retry button, and the save row under an editor form. Texts come from each page's own messages, so the wording stays per page.
import { Alert, Button } from "@/components";
import type { SaveOutcome } from "@/lib/client/hooks/use-save-form";
import { FormOutcome } from "../../_editors/form-outcome";

export function PageHeader({ title, intro }: { title: string; intro: string }) {
  return (
    <header>
      <h1 className="text-2xl font-semibold text-gray-900 wrap-anywhere">{title}</h1>
      <p className="text-sm text-gray-700">{intro}</p>
    </header>
  );
}

export function LoadFailedAlert({ text, retryLabel, onRetry }: { text: string; retryLabel: string; onRetry: () => void }) {
  return (
    <Alert tone="error">
      {text}{" "}
      <Button variant="ghost" onClick={onRetry}>
        {retryLabel}
      </Button>
    </Alert>
  );
}

/** The save row under an editor form: the button, "unsaved changes" while dirty, then the outcome of the save. */
export function SaveBar(props: {
  saveLabel: string;
  unsavedLabel: string;
  submitting: boolean;
  dirty: boolean;
  status: SaveOutcome;
  /** Long editors keep the row on screen while scrolling. */
  sticky?: boolean;
}) {
  const { status } = props;
  return (
    <div
      className={`flex flex-wrap items-center gap-3${props.sticky ? " sticky bottom-0 border-t border-gray-300 bg-white/95 py-3" : ""}`}
    >
      <Button type="submit" loading={props.submitting}>
        {props.saveLabel}
      </Button>
      {props.dirty && !status && <span className="text-sm text-gray-700">{props.unsavedLabel}</span>}
      <FormOutcome outcome={status} className="flex-1" />
    </div>
  );
}
