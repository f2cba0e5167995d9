// The alias forms' rules (zod and the alias field specs). Imported by the forms only on their first validation
// (lazyResolver), so zod is not part of the alias table's first load.
import { z } from "zod";
import { fieldSpecResolver } from "@/lib/client/hooks/use-field-form";
import { aliasFields } from "@/lib/schemas/alias";
import { isAccountName } from "@/lib/schemas/common";

export interface AliasValues {
  name: string;
  target: string;
}

export const createAliasResolver = fieldSpecResolver<AliasValues>(aliasFields, ["target"], [], {
  name: {
    schema: z.string().trim().toLowerCase().refine(isAccountName),
    // The API's 500.301 says "account name" (the rules are the same); the alias form says what it is about.
    error: "invalidAccountName",
    text: {
      pl: "Nieprawidłowa nazwa aliasu: małe litery, cyfry oraz . - _ (od 2 do 32 znaków), litera lub cyfra na początku i końcu.",
      en: "Invalid alias name: lowercase letters, digits and . - _ (2 to 32 characters), a letter or digit at both ends.",
    },
  },
});
export const aliasTargetResolver = fieldSpecResolver<AliasValues>(aliasFields, ["target"]);
