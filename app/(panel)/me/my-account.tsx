"use client";
// The "My account" page body: loads the record once, then shows the read-only facts and the five editable sections.
import { Address, Alert, Button, SkeletonLines } from "@/components";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT } from "@/lib/i18n";
import { AccountInfo } from "./account-info";
import { AutoresponderForm } from "./autoresponder-form";
import { ForwardsForm } from "./forwards-form";
import { MyAliases } from "./my-aliases";
import { meMessages } from "./messages";
import { PasswordForm } from "./password-form";
import { SpamFilterForm } from "./spam-filter-form";
import { SpamListsForm } from "./spam-lists-form";
import { TwoFactorSection } from "./two-factor";
import { useMyAccount } from "./use-my-account";

/** `denied`: the account was sent here from a domain administrator's page (said at the top). */
export function MyAccount({ domain, name, denied = false }: { domain: string; name: string; denied?: boolean }) {
  const t = useT(meMessages);
  const query = useMyAccount(domain, name);
  const errorText = useErrorText();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">
        {t("title")}{" "}
        <span className="block text-base font-normal text-gray-700 sm:inline">
          <Address text={`${name}@${domain}`} />
        </span>
      </h1>
      {denied && <Alert tone="warning">{t("denied")}</Alert>}
      {query.isPending && <SkeletonLines lines={8} label={t("loading")} />}
      {query.isError && (
        <Alert tone="error" title={t("loadFailed")}>
          <p>{errorText.failure(query.error)}</p>
          <Button variant="secondary" className="mt-2" onClick={() => void query.refetch()}>
            {t("retry")}
          </Button>
        </Alert>
      )}
      {query.data && (
        <>
          <AccountInfo record={query.data} postmaster={name === "postmaster"} />
          <AutoresponderForm record={query.data} />
          <ForwardsForm record={query.data} />
          <MyAliases record={query.data} />
          <PasswordForm record={query.data} />
          <TwoFactorSection />
          <SpamFilterForm record={query.data} />
          <SpamListsForm record={query.data} />
        </>
      )}
    </div>
  );
}
