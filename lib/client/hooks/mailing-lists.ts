"use client";
// Mailing lists of the postmaster's domain (hooks of resource.ts).
import { LIST_SORT_FIELDS } from "@/lib/schemas/mailing-list";
import { resourceHooks } from "./resource";

export interface MailingListSummary {
  name: string;
  domain: string;
  email: string;
  description: string;
  privacy_mode: string;
  replyto_mode: string;
  autosubscribe_enabled: string;
}

export type MailingListRecord = Record<string, unknown> & {
  name: string;
  email: string;
  accounts: string[];
  moderators: string[];
};

export const mailingLists = resourceHooks<MailingListSummary, MailingListRecord>({
  key: "mailing-lists",
  path: "mailinglists",
  touches: ["domain"],
  sortFields: LIST_SORT_FIELDS,
});

export const {
  keys: mailingListKeys,
  useList: useMailingListList,
  useDetail: useMailingList,
  useSave: useSaveMailingList,
  useDelete: useDeleteMailingLists,
} = mailingLists;
