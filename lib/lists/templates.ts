// The eight subscribe/unsubscribe templates of a list: placeholders and the Polish defaults (docs/lists.md).
import { CONFIRM_LINK, DEFAULT_LIST_TEMPLATES } from "@/lib/schemas/mailing-list";

export type TemplateName =
  "subscribe_request_mail" | "unsubscribe_request_mail" | "subscribe_mail" | "unsubscribe_mail";

export interface TemplateValues {
  /** The list's address. */
  list: string;
  /** The list's description (its address when it has none). */
  description: string;
  /** The address being subscribed or unsubscribed. */
  address: string;
  /** The confirmation link (only in the two request templates). */
  confirm_link?: string;
}

/** Every placeholder a template may use; anything else in double braces stays as written. */
export const PLACEHOLDERS = ["{{list}}", "{{description}}", "{{address}}", CONFIRM_LINK] as const;

export function render(template: string, v: TemplateValues): string {
  return template.replace(
    /\{\{(list|description|address|confirm_link)\}\}/g,
    (whole, key: keyof TemplateValues) => v[key] ?? whole,
  );
}

/** The list's subject and body of one template, the default where the list's own is empty. */
export function templateOf(
  list: Record<string, unknown> | object,
  name: TemplateName,
): { subject: string; body: string } {
  const camel = (s: string) => s.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const field = (key: string) => {
    const value = (list as Record<string, unknown>)[camel(key)];
    return typeof value === "string" ? value : "";
  };
  const subject = field(`${name}_subject`) || DEFAULT_LIST_TEMPLATES[`${name}_subject`];
  const body = field(`${name}_body`) || DEFAULT_LIST_TEMPLATES[`${name}_body`];
  return { subject, body };
}
