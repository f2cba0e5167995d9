"use client";
// Mailing lists of the postmaster's domain (hooks of resource.ts).
import type { MailingListRecord, MailingListSummary } from "@/lib/schemas/mailing-list";
import { LIST_SORT_FIELDS } from "@/lib/schemas/list-columns";
import { resourceHooks } from "./resource";

// The answers' shapes, from lib/schemas/mailing-list.ts.
export type { MailingListRecord, MailingListSummary };

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
