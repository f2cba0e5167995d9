// The spam settings an account and its domain both have, with their rules: one definition for both record tables.
import { z } from "zod";
import { flag, sieveSpamList, spamList, triState } from "./common";
import type { RecordField } from "./fields";

const int = z.int();
const list = z.array(z.string());
const spamListField = { record: list, write: { schema: spamList(), error: "invalidSpamListEntry" } } as const;
// The white and the black list go into each account's Sieve script, which must stay small (SPAM_LIST_MAX_CHARACTERS).
const sieveSpamListField = {
  record: list,
  write: { schema: sieveSpamList(), error: "invalidSpamListEntry" },
} as const;
// -1: the domain's setting (for an account) or the server's (for a domain).
const switchField = { record: int, write: { schema: triState(), error: "invalidSpamSwitch" } } as const;

export const spamEnabledField = {
  record: int,
  write: { schema: flag(), error: "invalidSpamEnabled" },
} as const satisfies RecordField;

/** The five address lists, in the records' order; the forms edit each as text, one entry a line. */
export const SPAM_LISTS = [
  "spam_white_list",
  "spam_black_list",
  "spam_greylist_whitelist",
  "spam_spf_whitelist",
  "spam_rbl_whitelist",
] as const;
export type SpamList = (typeof SPAM_LISTS)[number];

/** The three switches that may say "default" (-1). */
export const SPAM_SWITCHES = ["rbl", "spf", "greylist"] as const;

/** The address lists and the three switches, in the records' order. */
export const spamListsAndSwitches = {
  spam_white_list: sieveSpamListField,
  spam_black_list: sieveSpamListField,
  spam_greylist_whitelist: spamListField,
  spam_spf_whitelist: spamListField,
  spam_rbl_whitelist: spamListField,
  spam_rbl_enabled: switchField,
  spam_spf_enabled: switchField,
  spam_greylist_enabled: switchField,
} as const satisfies Record<string, RecordField>;

/** The server's defaults of the three switches (SPAM_*_DEFAULT), where domain and account say -1. */
export interface SpamDefaults {
  rbl: 0 | 1;
  spf: 0 | 1;
  greylist: 0 | 1;
}

/** 1 or 0 from the account's value, else the domain's, else the server's default. */
export function effectiveSwitch(account: number | undefined, domain: number, serverDefault: 0 | 1): 0 | 1 {
  if (account === 0 || account === 1) return account;
  if (domain === 0 || domain === 1) return domain;
  return serverDefault;
}
