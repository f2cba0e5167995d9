// The mailing-list list's sortable fields, apart from the zod rules of ./mailing-list so that client code can import
// them without zod (zod would weigh on the list table's first load).
export const LIST_SORT_FIELDS = [
  "name",
  "email",
  "domain",
  "description",
  "privacy_mode",
  "replyto_mode",
  "autosubscribe_enabled",
] as const;
