"use client";
// Changes of the selected accounts (block, unblock, anti-spam, capacity), run by the resource table over every
// selected name in atomic chunks. Blocking asks first, as deleting does: it also ends the accounts' panel sessions.
// The postmaster account cannot be blocked (the service refuses a whole request naming it): blocking reads the
// selection first and leaves it out, and the question says so. Unblocking, capacity and anti-spam include it.
import { useEffect, useState } from "react";
import { Button, ConfirmDialog, TextField } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useLocale, useT } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import type { BulkContext, ResolvedSelection } from "../_postmaster/resource-table";
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
  /** The names the block question is about (the selection read, the postmaster left out). */
  const [confirmBlock, setConfirmBlock] = useState<ResolvedSelection | null>(null);
  const [capacity, setCapacity] = useState("");
  const [capacityError, setCapacityError] = useState("");
  // This bar appears once rows are selected: fetch the capacity rule now, so that "set capacity" answers at once.
  useEffect(() => {
    void import("./create-account-schema").catch(() => undefined);
  }, []);

  const run = (body: Record<string, unknown>, names?: string[], note?: string) =>
    ctx.run((chunk) => apply(chunk, body), names, note);

  const askBlock = async () => {
    const resolved = await ctx.resolve(true);
    if (!resolved) return;
    if (resolved.names.length === 0) ctx.showError(t("skippedBlock"));
    else setConfirmBlock(resolved);
  };

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
          onClick={() => void (label === "block" ? askBlock() : run(body))}
        >
          {t(label)}
        </Button>
      ))}
      <ConfirmDialog
        open={confirmBlock !== null}
        danger
        title={t("confirmBlockTitle")}
        description={
          confirmBlock && (
            <>
              <p>{t("confirmBlock", { count: countOf(locale, confirmBlock.names.length, ACCOUNT_NOUN) })}</p>
              {confirmBlock.skipped.length > 0 && <p className="mt-2">{t("skippedBlock")}</p>}
            </>
          )
        }
        confirmLabel={t("block")}
        onConfirm={() => {
          if (!confirmBlock) return;
          setConfirmBlock(null);
          void run({ blocked: 1 }, confirmBlock.names, confirmBlock.skipped.length > 0 ? t("skippedBlock") : undefined);
        }}
        onCancel={() => setConfirmBlock(null)}
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
