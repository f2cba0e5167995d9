// The create-account form's rules (zod and the account field specs). Imported by the form only on its first
// validation (lazyResolver), so zod is not part of the account table's first load.
import { z } from "zod";
import { fieldSpecResolver } from "@/lib/client/hooks/use-field-form";
import { accountFields } from "@/lib/schemas/account";
import { isAccountName, passwordSchema } from "@/lib/schemas/common";

export interface CreateValues {
  name: string;
  password: string;
  description: string;
  capacity: string;
}

export const createAccountResolver = fieldSpecResolver<CreateValues>(accountFields, ["description", "capacity"], [], {
  name: { schema: z.string().trim().toLowerCase().refine(isAccountName), error: "invalidAccountName" },
  // Required on create: the spec's "" (keep unchanged) does not apply.
  password: { schema: passwordSchema(), error: "invalidPassword" },
});

/** The bulk "set capacity" check: the same rule as the account's capacity field. */
export const parseCapacity = (text: string) => accountFields.capacity.schema.safeParse(text);
