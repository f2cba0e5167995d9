// Query parameters of the three list endpoints (contract §6).
import { z } from "zod";
import { PAGE_DIGITS } from "./page-number";

export const pageQuerySchema = (sortFields: readonly [string, ...string[]]) =>
  z.object({
    page: z.string().regex(PAGE_DIGITS).transform(Number).optional(),
    size: z
      .string()
      .regex(/^\d{1,4}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(1000))
      .optional(),
    // No record's name or text holds a control character: a search with one (inside, or alone once the
    // surrounding whitespace is trimmed) is a malformed query, not an empty one that lists every row.
    search: z
      .string()
      .max(100)
      // eslint-disable-next-line no-control-regex -- control characters are what this is about
      .refine((s) => !/[\u0000-\u001f\u007f]/.test(s.trim()))
      .optional(),
    sort: z.enum(sortFields).optional(),
    sort_dir: z.enum(["asc", "desc"]).optional(),
  });

export interface PageQuery {
  page: number;
  size: number;
  search: string;
  /** What is searched instead when `search` matches nothing (an address of the domain: the names it ends). */
  searchIfNone?: string;
  sort: string;
  sortDir: "asc" | "desc";
}

export interface PageEnvelope<T> {
  result_info: { total: number; fetched: number; page_size: number; page: number };
  result_data: Record<string, T>;
}

/** The list answer's envelope around `item`, the resource's summary item (for the OpenAPI document and tests). */
export const pageEnvelopeSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    result_info: z.object({ total: z.int(), fetched: z.int(), page_size: z.int(), page: z.int() }),
    result_data: z.record(z.string(), item),
  });
