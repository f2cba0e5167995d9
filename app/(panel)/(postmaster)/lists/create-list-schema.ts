// The create-list form's rules (zod and the list field specs). Imported by the form only on its first validation
// (lazyResolver), so zod is not part of the list table's first load.
import { z } from "zod";
import { fieldSpecResolver } from "@/lib/client/hooks/use-field-form";
import { isListName } from "@/lib/schemas/common";
import { mailingListFields } from "@/lib/schemas/mailing-list";

export interface CreateListValues {
  name: string;
  description: string;
}

export const createListResolver = fieldSpecResolver<CreateListValues>(mailingListFields, ["description"], [], {
  name: { schema: z.string().trim().toLowerCase().refine(isListName), error: "invalidListName" },
});
