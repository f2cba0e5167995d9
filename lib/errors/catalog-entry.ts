// One entry of the error catalog (lib/errors/catalog.ts) and how the catalog's parts write it.
import { EDGE_ERRORS } from "@/lib/runtime/edge.mjs";

export type ErrorCategory = "internal" | "resource_missing" | "resource_existing" | "authorization" | "validation";

export interface CatalogEntry {
  code: string;
  status: number;
  category: ErrorCategory;
  /** Polish text sent to clients. */
  message: string;
  /** The same text in English; never sent by the API, shown by the panel when its language is English. */
  messageEn: string;
  /** English description of when the error is raised (for the docs). */
  condition: string;
}

export const entry = (
  code: string,
  category: ErrorCategory,
  message: string,
  messageEn: string,
  condition: string,
): CatalogEntry => ({ code, status: Number(code.split(".")[0]), category, message, messageEn, condition });

/** An error lib/runtime/server.mjs also answers by itself, before Next runs: its code and text are in edge.mjs. */
export const edgeEntry = (key: keyof typeof EDGE_ERRORS, messageEn: string, condition: string): CatalogEntry => {
  const { code, category, message } = EDGE_ERRORS[key];
  return entry(code, category, message, messageEn, condition);
};
