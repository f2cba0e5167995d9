"use client";
// Changes of the selected accounts (block, unblock, anti-spam, capacity), run by the resource table over every
// selected name in atomic chunks. Blocking asks first, as deleting does: it also ends the accounts' panel sessions.
import { useEffect, useState } from "react";
import { Button, ConfirmDialog, TextField } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useLocale, useT } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import type { BulkContext } from "../_postmaster/resource-table";
import { ACCOUNT_NOUN, accountMessages } from "./messages";

const SWITCHES = [
  ["block", { blocked: 1 }],
  ["unblock", { blocked: 0 }],
  ["spamOn", { spam_enabled: 1 }],
  ["spamOff", { spam_enabled: 0 }],
] as const;

export function BulkActions({
  ctx,
  apply,
}: {
  ctx: BulkContext;
  apply: (names: string[], body: Record<string, unknown>) => Promise<unknown>;
}) {
  const t = useT(accountMessages);
  const locale = useLocale();
  const errorText = useErrorText();
  const [confirmBlock, setConfirmBlock] = useState(false);
  const [capacity, setCapacity] = useState("");
  const [capacityError, setCapacityError] = useState("");
  // This bar appears once rows are selected: fetch the capacity rule now, so that "set capacity" answers at once.
  useEffect(() => {
    void import("./create-account-schema").catch(() => undefined);
  }, []);

  const run = (body: Record<string, unknown>) => ctx.run((names) => apply(names, body));

  const applyCapacity = async () => {
    // The capacity rule comes with zod, loaded only when it is first needed (not on the table's first load).
    const { parseCapacity } = await import("./create-account-schema");
    const parsed = parseCapacity(capacity);
    if (!parsed.success) {
      ctx.clearOutcome();
      setCapacityError(errorText.catalog("invalidCapacity"));
      return;
    }
    setCapacityError("");
    await run({ capacity: parsed.data });
  };

  return (
    <>
      {SWITCHES.map(([label, body]) => (
        <Button
          key={label}
          variant="secondary"
          disabled={ctx.pending}
          onClick={() => (label === "block" ? setConfirmBlock(true) : void run(body))}
        >
          {t(label)}
        </Button>
      ))}
      <ConfirmDialog
        open={confirmBlock}
        danger
        title={t("confirmBlockTitle")}
        description={t("confirmBlock", { count: countOf(locale, ctx.count, ACCOUNT_NOUN) })}
        confirmLabel={t("block")}
        onConfirm={() => {
          setConfirmBlock(false);
          void run({ blocked: 1 });
        }}
        onCancel={() => setConfirmBlock(false)}
      />
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void applyCapacity();
        }}
      >
        <TextField
          className="w-44"
          label={t("bulkCapacity")}
          inputMode="numeric"
          value={capacity}
          error={capacityError}
          onChange={(e) => setCapacity(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={ctx.pending}>
          {t("setCapacity")}
        </Button>
      </form>
    </>
  );
}
