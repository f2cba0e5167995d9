// The alias list's sortable fields, apart from the zod rules of ./alias so that client code can import them without
// zod (zod would weigh on the alias table's first load).
export const ALIAS_SORT_FIELDS = ["name", "email", "domain", "target"] as const;
