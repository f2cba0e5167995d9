// Label, hint and error pieces shared by the form controls, so every control wires aria-describedby the same way.
import { useId, type ReactNode } from "react";

/** Ids of the hint and error, and the control's aria-describedby (plus any ids the caller adds, e.g. a rule list). */
export function fieldIds(id: string, hint?: ReactNode, error?: string, extra?: string) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId, extra].filter(Boolean).join(" ") || undefined;
  return { hintId, errorId, describedBy };
}

export function FieldHint({ id, children }: { id?: string; children?: ReactNode }) {
  if (!id || !children) return null;
  return (
    <p id={id} className="mt-1 text-sm text-gray-700">
      {children}
    </p>
  );
}

export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!id || !message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-800">
      {message}
    </p>
  );
}

/**
 * Every control's look. A read-only input or textarea is grey; a select is white, though it matches :read-only too
 * (only inputs and textareas are read-write), and as tall as a text input (42 px). An invalid control (aria-invalid,
 * which Field sets from its error) has a red border and a red focus ring, whichever form it is in.
 */
export const controlClass = (invalid: boolean) =>
  `block w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 disabled:bg-gray-100 disabled:text-gray-700 [&:is(input,textarea):read-only]:bg-gray-50 [select&]:h-[42px] aria-invalid:border-red-700 aria-invalid:focus-visible:outline-red-700 ${
    invalid ? "border-red-700" : "border-gray-500"
  }`;

/** What a control needs from its Field: its id and the aria attributes tying it to the hint and error. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  className: string;
}

/** What a labelled control takes for its Field: label, hint, error, and the id, class and extra descriptions. */
export interface LabelledProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The message shown under the field; its presence marks the field invalid. */
  error?: string;
  id?: string;
  className?: string;
  "aria-describedby"?: string;
}

/** A labelled control's props split in two: those of its Field, and the rest, for the control itself. */
export function splitField<P extends LabelledProps>({
  label,
  hint,
  error,
  id,
  className,
  "aria-describedby": describedBy,
  ...control
}: P) {
  return [{ label, hint, error, id, className, describedBy }, control] as const;
}

/** The label, hint and error around one control; `children` renders the control with the props it is given. */
export function Field({
  id,
  label,
  hint,
  error,
  describedBy: extra,
  className = "",
  children,
}: {
  id?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  describedBy?: string;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const { hintId, errorId, describedBy } = fieldIds(fieldId, hint, error, extra);
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-gray-900">
        {label}
      </label>
      {children({
        id: fieldId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        className: controlClass(!!error),
      })}
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
