"use client";
// lib/client/error-text.ts bound to the page's language.
import type { ErrorBody } from "@/lib/errors/api-error";
import type { ErrorKey } from "@/lib/errors/catalog";
import { useLocale } from "@/lib/i18n";
import { catalogText, errorBodyText, failureText } from "../error-text";

export function useErrorText() {
  const locale = useLocale();
  return {
    locale,
    body: (body: Pick<ErrorBody, "code" | "message" | "attributes">) => errorBodyText(body, locale),
    catalog: (key: ErrorKey) => catalogText(key, locale),
    failure: (err: unknown) => failureText(err, locale),
  };
}
