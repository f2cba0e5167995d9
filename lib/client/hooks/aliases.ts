"use client";
// Aliases of the postmaster's domain (hooks of resource.ts). An account record lists the aliases pointing at it,
// so alias writes invalidate the accounts too.
import { ALIAS_SORT_FIELDS } from "@/lib/schemas/alias";
import { resourceHooks } from "./resource";

export interface AliasItem {
  name: string;
  domain: string;
  email: string;
  target: string;
}

export const aliases = resourceHooks<AliasItem, AliasItem>({
  key: "aliases",
  path: "aliases",
  touches: ["accounts", "domain"],
  sortFields: ALIAS_SORT_FIELDS,
});

export const { keys: aliasKeys, useList: useAliasList, useSave: useSaveAlias, useDelete: useDeleteAliases } = aliases;
