"use client";
// Aliases of the postmaster's domain (hooks of resource.ts). An account record lists the aliases pointing at it,
// so alias writes invalidate the accounts too.
import { resourceHooks } from "./resource";

export interface AliasItem {
  name: string;
  domain: string;
  email: string;
  target: string;
}

export const aliases = resourceHooks<AliasItem, AliasItem>({ key: "aliases", path: "aliases", touches: ["accounts", "domain"] });

export const { keys: aliasKeys, useList: useAliasList, useSave: useSaveAlias, useDelete: useDeleteAliases } = aliases;
