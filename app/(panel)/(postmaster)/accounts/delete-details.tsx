"use client";
// What goes with accounts being deleted (contract §9), as the delete dialog says it: read by
// useAccountDeleteDetails (lib/client/hooks/account-delete-details.ts), shown in the dialog's box of fixed height.
// Its state goes to the dialog through `onState`: "Usuń" waits until what goes is shown.
import { useEffect } from "react";
import { Address, Alert, Button, Spinner, type DetailsState } from "@/components";
import { useAccountDeleteDetails } from "@/lib/client/hooks/account-delete-details";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useLocale, useT } from "@/lib/i18n";
import { countOf } from "@/lib/i18n/plural";
import { tableMessages } from "../_postmaster/table-messages";
import { ACCOUNT_NOUN, ALIAS_NOUN, accountMessages } from "./messages";

/**
 * `names` "all": every account matching the search, not listed (the dialog then says what goes, in general).
 * `count`: how many accounts go (the names' number, or all matching less those unselected).
 */
export function AccountDeleteDetails({
  domain,
  names,
  count,
  onState,
}: {
  domain: string;
  names: string[] | "all";
  count: number;
  onState: (state: DetailsState) => void;
}) {
  const t = useT(accountMessages);
  const tt = useT(tableMessages);
  const locale = useLocale();
  const errorText = useErrorText();
  const state = useAccountDeleteDetails(domain, names);
  useEffect(() => onState(state.status), [state.status, onState]);
  // Every sentence has a form for one account and one for several (and, for what is listed, one thing or several).
  const many = count !== 1;
  if (state.status === "loading")
    return <Spinner size="sm" label={t(many ? "deleteCheckingMany" : "deleteChecking")} />;
  if (state.status === "failed") {
    return (
      <Alert tone="error">
        {t(many ? "deleteCheckFailedMany" : "deleteCheckFailed", { error: errorText.failure(state.error) })}{" "}
        <Button variant="ghost" onClick={state.retry}>
          {tt("retry")}
        </Button>
      </Alert>
    );
  }
  if (!state.details) return <p>{t(many ? "deleteGoesToo" : "deleteGoesTooOne")}</p>;

  const { aliases, catchallOff, lists, forwarding } = state.details;
  if (aliases.length === 0 && !catchallOff && lists.length === 0 && forwarding.length === 0)
    return <p>{t(many ? "deleteNothingElse" : "deleteNothingElseOne")}</p>;
  const suffix = many ? "Many" : "";
  return (
    <div className="space-y-2">
      {aliases.length > 0 && (
        <div>
          <p>
            {t(`${aliases.length === 1 ? "deleteAlias" : "deleteAliases"}${suffix}`, {
              count: countOf(locale, aliases.length, ALIAS_NOUN),
            })}
          </p>
          <ul className="mt-1 list-disc pl-5">
            {aliases.map((a) => (
              <li key={a}>
                <Address text={a} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {catchallOff && <p>{t("deleteCatchall", { address: catchallOff })}</p>}
      {forwarding.length > 0 && (
        <div>
          <p>
            {t(`${forwarding.length === 1 ? "deleteForward" : "deleteForwards"}${suffix}`, {
              count: countOf(locale, forwarding.length, ACCOUNT_NOUN),
            })}
          </p>
          <ul className="mt-1 list-disc pl-5" data-testid="delete-forwards">
            {forwarding.map((f) => (
              <li key={f}>
                <Address text={f} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {lists.length > 0 && (
        <div>
          <p>{t(`${lists.length === 1 ? "deleteList" : "deleteLists"}${suffix}`, { n: lists.length })}</p>
          <ul className="mt-1 list-disc pl-5" data-testid="delete-lists">
            {lists.map((l) => (
              <li key={l}>
                <Address text={l} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
