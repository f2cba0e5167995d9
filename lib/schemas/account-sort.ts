// The account list's sortable fields, apart from the zod rules of ./account so that client code can import them
// without zod.
/** Sortable fields of the account list: every field of the summary item (contract §6). */
export const ACCOUNT_SORT_FIELDS = [
  "name",
  "email",
  "domain",
  "creation_date",
  "expiration_date",
  "last_auth_date",
  "capacity",
  "description",
  "blocked",
  "usage",
  "usage_bytes",
] as const;
