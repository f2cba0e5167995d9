"use client";
// Changes the selected accounts together with one multi-name PUT: all of them change or none does, and each
// failing name's error is listed.
import { useEffect, useState } from "react";
import { Alert, Button, TextField } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useUpdateAccounts } from "@/lib/client/hooks/accounts";
import { useT } from "@/lib/i18n";
import { accountMessages } from "./messages";

export function BulkActions({
  domain,
  names,
  onDelete,
  onClear,
}: {
  domain: string;
  names: string[];
  onDelete: () => void;
  onClear: () => void;
}) {
  const t = useT(accountMessages);
  const errorText = useErrorText();
  const update = useUpdateAccounts(domain);
  const [capacity, setCapacity] = useState("");
  const [capacityError, setCapacityError] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string; children?: string[] } | null>(null);
  // This bar appears once rows are selected: fetch the capacity rule now, so that "set capacity" answers at once.
  useEffect(() => {
    void import("./create-account-schema").catch(() => undefined);
  }, []);

  const apply = async (body: Record<string, unknown>) => {
    setResult(null);
    try {
      await update.mutateAsync({ names, body });
      setResult({ ok: true, text: t("bulkDone", { n: names.length }) });
    } catch (err) {
      const children =
        err instanceof PanelApiError
          ? err.body.children?.map((c) => `${c.source ?? ""}: ${errorText.body(c)} (${c.code})`)
          : undefined;
      setResult({ ok: false, text: t("bulkFailed", { error: errorText.failure(err) }), children });
    }
  };

  const applyCapacity = async () => {
    // The capacity rule comes with zod, loaded only when it is first needed (not on the table's first load).
    const { parseCapacity } = await import("./create-account-schema");
    const parsed = parseCapacity(capacity);
    if (!parsed.success) {
      setCapacityError(errorText.catalog("invalidCapacity"));
      return;
    }
    setCapacityError("");
    await apply({ capacity: parsed.data });
  };

  return (
    <section aria-label={t("selected", { n: names.length })} className="space-y-2 rounded-md border border-blue-300 bg-blue-50 p-3">
      <div className="flex flex-wrap items-end gap-2">
        <p className="mr-2 self-center text-sm font-semibold" aria-live="polite">
          {t("selected", { n: names.length })}
        </p>
        <Button variant="secondary" disabled={update.isPending} onClick={() => void apply({ blocked: 1 })}>
          {t("block")}
        </Button>
        <Button variant="secondary" disabled={update.isPending} onClick={() => void apply({ blocked: 0 })}>
          {t("unblock")}
        </Button>
        <Button variant="secondary" disabled={update.isPending} onClick={() => void apply({ spam_enabled: 1 })}>
          {t("spamOn")}
        </Button>
        <Button variant="secondary" disabled={update.isPending} onClick={() => void apply({ spam_enabled: 0 })}>
          {t("spamOff")}
        </Button>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void applyCapacity();
          }}
        >
          <TextField
            className="w-36"
            label={t("bulkCapacity")}
            inputMode="numeric"
            value={capacity}
            error={capacityError}
            onChange={(e) => setCapacity(e.target.value)}
          />
          <Button type="submit" variant="secondary" disabled={update.isPending}>
            {t("setCapacity")}
          </Button>
        </form>
        <Button variant="danger" disabled={update.isPending} onClick={onDelete}>
          {t("deleteSelected")}
        </Button>
        <Button variant="ghost" onClick={onClear}>
          {t("clearSelection")}
        </Button>
      </div>
      {update.isPending && <p className="text-sm" role="status">{t("updating")}</p>}
      {result && (
        <Alert tone={result.ok ? "success" : "error"}>
          {result.text}
          {result.children && (
            <ul className="mt-1 list-disc pl-5">
              {result.children.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
    </section>
  );
}
