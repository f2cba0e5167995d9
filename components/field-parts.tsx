// Label, hint and error pieces shared by the form controls, so every control wires aria-describedby the same way.
import type { ReactNode } from "react";

/** Ids of the hint and error, and the control's aria-describedby (plus any ids the caller adds, e.g. a rule list). */
export function fieldIds(id: string, hint?: ReactNode, error?: string, extra?: string) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, extra].filter(Boolean).join(" ") || undefined;
  return { hintId, errorId, describedBy };
}

export function FieldHint({ id, children }: { id?: string; children?: ReactNode }) {
  if (!id || !children) return null;
  return <p id={id} className="mt-1 text-sm text-gray-700">{children}</p>;
}

export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!id || !message) return null;
  return <p id={id} className="mt-1 text-sm font-medium text-red-800">{message}</p>;
}

export const controlClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:bg-gray-100 disabled:text-gray-700 read-only:bg-gray-50 ${
    invalid ? "border-red-700" : "border-gray-500"
  }`;
