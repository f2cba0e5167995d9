// The one catalog of API errors: code, HTTP status, category, Polish message (what the API sends), its English
// text (what the panel shows in English, see lib/client/error-text.ts) and the condition that raises it.
// Services throw by key (`throw apiError("accountNotFound", ...)`); docs/errors.md is generated from this table.
// No server imports: the panel shows the same messages.
import { accountErrors } from "./catalog-accounts";
import { domainErrors } from "./catalog-domains";
import { requestErrors } from "./catalog-request";

export type { CatalogEntry, ErrorCategory } from "./catalog-entry";

// In the order docs/errors.md lists them.
export const errorCatalog = { ...requestErrors, ...accountErrors, ...domainErrors } as const;

export type ErrorKey = keyof typeof errorCatalog;

// A key in two parts would keep only the last one's entry: the parts' keys must not meet.
type Disjoint<A, B> = [keyof A & keyof B] extends [never] ? true : false;
const distinctKeys: [
  Disjoint<typeof requestErrors, typeof accountErrors>,
  Disjoint<typeof requestErrors, typeof domainErrors>,
  Disjoint<typeof accountErrors, typeof domainErrors>,
] = [true, true, true];
void distinctKeys;
