"use client";
// Accounts of the postmaster's domain (hooks of resource.ts). Deleting an account deletes the aliases pointing at
// it and may switch off the catchall, so its writes invalidate the aliases and the domain too.
import type { AccountRecord, AccountSummary } from "@/lib/schemas/account";
import { ACCOUNT_SORT_FIELDS } from "@/lib/schemas/list-columns";
import { resourceHooks, type InitialListPage } from "./resource";

// The answers' shapes are the zod schemas of lib/schemas/account.ts (types only: no zod in the browser bundle).
export type { AccountRecord, AccountSummary };

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
