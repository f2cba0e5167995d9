// The alias list's sortable fields, apart from the zod rules of ./alias so that client code can import them without
// zod (the alias table's first load, issue 33).
export const ALIAS_SORT_FIELDS = ["name", "email", "domain", "target"] as const;
