"use client";
// Aliases of the postmaster's domain (hooks of resource.ts). An account record lists the aliases pointing at it,
// so alias writes invalidate the accounts too.
import type { AliasRecord } from "@/lib/schemas/alias";
import { ALIAS_SORT_FIELDS } from "@/lib/schemas/list-columns";
import { resourceHooks } from "./resource";

/** The alias list item (the same shape as the record), from lib/schemas/alias.ts. */
export type AliasItem = AliasRecord;
export type { AliasRecord };

export const aliases = resourceHooks<AliasItem, AliasItem>({
  key: "aliases",
  path: "aliases",
  touches: ["accounts", "domain"],
  sortFields: ALIAS_SORT_FIELDS,
});

export const { keys: aliasKeys, useList: useAliasList, useSave: useSaveAlias, useDelete: useDeleteAliases } = aliases;
