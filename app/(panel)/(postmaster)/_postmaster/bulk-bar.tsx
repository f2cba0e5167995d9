"use client";
// The resource table's bar of the selected rows (count, "select all matching", bulk actions, delete, progress) and
// the last bulk action's outcome.
import type { ReactNode } from "react";
import { Alert, Button } from "@/components";
import { useT } from "@/lib/i18n";
import { CHUNK_SIZE, type ChunkProgress } from "./bulk";
import { Progress } from "./progress";
import { tableMessages } from "./table-messages";
import type { Selection } from "./use-selection";

export interface Outcome {
  ok: boolean;
  text: string;
  children?: string[];
}

export function BulkBar(props: {
  selection: Selection;
  /** Rows the search matches, on every page. */
  total: number;
  search: string;
  count: (n: number) => string;
  progress: ChunkProgress | null;
  actions: ReactNode;
  onDelete: () => void;
}) {
  const t = useT(tableMessages);
  const { selection, total, count, progress } = props;
  const n = selection.count;
  return (
    <section aria-label={t("selectedLabel")} className="space-y-2 rounded-md border border-blue-300 bg-blue-50 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-2 text-sm font-semibold" aria-live="polite">
          {selection.allMatching ? t("selectedAll", { count: count(n) }) : t("selected", { count: count(n) })}
        </p>
        {!selection.allMatching && total > n && (
          <Button variant="secondary" onClick={() => selection.selectAllMatching(props.search, total)}>
            {t("selectAllMatching", { count: count(total) })}
          </Button>
        )}
        <Button variant="ghost" onClick={selection.clear}>
          {t("clearSelection")}
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        {props.actions}
        <Button variant="danger" disabled={progress !== null} onClick={props.onDelete}>
          {t("deleteSelected")}
        </Button>
      </div>
      {n > CHUNK_SIZE && <p className="text-sm text-gray-800">{t("chunksNote", { size: CHUNK_SIZE })}</p>}
      {progress && (
        <Progress
          label={progress.phase === "reading" ? t("reading") : t("applying")}
          done={progress.done}
          total={progress.total}
          of={t("of")}
        />
      )}
    </section>
  );
}

export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  return (
    <Alert tone={outcome.ok ? "success" : "error"}>
      {outcome.text}
      {outcome.children && (
        <ul className="mt-1 list-disc pl-5">
          {outcome.children.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
