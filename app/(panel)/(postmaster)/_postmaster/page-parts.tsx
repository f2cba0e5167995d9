// Pieces every postmaster page repeats: the page heading with its intro line, and the "could not load" alert
// with a retry button. Texts come from each page's own messages, so the wording stays per page.
import { Alert, Button } from "@/components";

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
