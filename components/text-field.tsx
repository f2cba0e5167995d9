// A labelled text input (or textarea) with hint and error wired to aria-describedby / aria-invalid.
// Works with react-hook-form's register(): name, onChange, onBlur and ref pass straight through.
import type { InputHTMLAttributes, Ref, TextareaHTMLAttributes } from "react";
import { Field, splitField, type LabelledProps } from "./field-parts";

export interface TextFieldProps
  extends LabelledProps, Omit<InputHTMLAttributes<HTMLInputElement>, "children" | keyof LabelledProps> {
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ ref, ...props }: TextFieldProps) {
  const [field, input] = splitField(props);
  return <Field {...field}>{(control) => <input ref={ref} {...control} {...input} />}</Field>;
}

export interface TextAreaProps
  extends LabelledProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "children" | keyof LabelledProps> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextArea({ ref, rows = 4, ...props }: TextAreaProps) {
  const [field, textarea] = splitField(props);
  return <Field {...field}>{(control) => <textarea ref={ref} rows={rows} {...control} {...textarea} />}</Field>;
}
