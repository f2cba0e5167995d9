// A labelled native select (native for keyboard and screen-reader support) with hint and error.
import type { Ref, SelectHTMLAttributes } from "react";
import { Field, splitField, type LabelledProps } from "./field-parts";

export interface SelectOption {
  value: string | number;
  label: string;
}

export interface SelectProps
  extends LabelledProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, "children" | keyof LabelledProps> {
  options: readonly SelectOption[];
  ref?: Ref<HTMLSelectElement>;
}

export function Select({ ref, options, ...props }: SelectProps) {
  const [field, select] = splitField(props);
  return (
    <Field {...field}>
      {(control) => (
        <select ref={ref} {...control} {...select}>
          {options.map((o) => (
            <option key={String(o.value)} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
