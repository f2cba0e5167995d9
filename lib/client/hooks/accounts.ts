"use client";
// Accounts of the postmaster's domain (hooks of resource.ts). Deleting an account deletes the aliases pointing at
// it and may switch off the catchall, so its writes invalidate the aliases and the domain too.
import { ACCOUNT_SORT_FIELDS } from "@/lib/schemas/account-sort";
import { resourceHooks, type InitialListPage } from "./resource";

/** The account list item: numbers as strings, usage with a % suffix, usage_bytes (contract §9) when served. */
export interface AccountSummary {
  name: string;
  email: string;
  domain: string;
  description: string;
  capacity: string;
  usage: string;
  usage_bytes?: string;
  blocked: string;
  creation_date: string;
  expiration_date: string;
  last_auth_date: string;
}

/** The full account record as GET returns it. */
export type AccountRecord = Record<string, unknown> & { name: string; email: string; usage: number | string };

export type InitialAccountPage = InitialListPage<AccountSummary>;

export const accounts = resourceHooks<AccountSummary, AccountRecord>({
  key: "accounts",
  path: "emails",
  touches: ["aliases", "domain"],
  sortFields: ACCOUNT_SORT_FIELDS,
});

export const {
  keys: accountKeys,
  useList: useAccountList,
  useDetail: useAccount,
  useSave: useSaveAccount,
  useUpdate: useUpdateAccounts,
  useDelete: useDeleteAccounts,
} = accounts;
