// A labelled native select (native for keyboard and screen-reader support) with hint and error.
import type { ReactNode, Ref, SelectHTMLAttributes } from "react";
import { Field } from "./field-parts";

export interface SelectOption {
  value: string | number;
  label: string;
}

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "children"> {
  label: ReactNode;
  options: readonly SelectOption[];
  hint?: ReactNode;
  error?: string;
  ref?: Ref<HTMLSelectElement>;
}

export function Select({
  label,
  options,
  hint,
  error,
  id,
  className,
  ref,
  "aria-describedby": extra,
  ...select
}: SelectProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} describedBy={extra} className={className}>
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
