// The error body every failed call answers (contract §4), for the OpenAPI document and the tests.
import { z } from "zod";
import { errorCatalog } from "../errors/catalog";

export const errorBodySchema = z.object({
  code: z.string().describe(`One of: ${[...new Set(Object.values(errorCatalog).map((e) => e.code))].join(", ")}`),
  message: z.string(),
  category: z.enum(["internal", "resource_missing", "resource_existing", "authorization", "validation"]),
  source: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  children: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type ErrorBodyShape = z.infer<typeof errorBodySchema>;
