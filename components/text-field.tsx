// A labelled text input (or textarea) with hint and error wired to aria-describedby / aria-invalid.
// Works with react-hook-form's register(): name, onChange, onBlur and ref pass straight through.
import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from "react";
import { Field } from "./field-parts";

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The message shown under the field; its presence marks the field invalid. */
  error?: string;
}

export interface TextFieldProps extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, "children"> {
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  hint,
  error,
  id,
  className,
  ref,
  "aria-describedby": extra,
  ...input
}: TextFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} describedBy={extra} className={className}>
      {(control) => <input ref={ref} {...control} {...input} />}
    </Field>
  );
}

export interface TextAreaProps extends FieldProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "children"> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextArea({
  label,
  hint,
  error,
  id,
  className,
  rows = 4,
  ref,
  "aria-describedby": extra,
  ...textarea
}: TextAreaProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} describedBy={extra} className={className}>
      {(control) => <textarea ref={ref} rows={rows} {...control} {...textarea} />}
    </Field>
  );
}
