// A labelled native select (native for keyboard and screen-reader support) with hint and error.
import { useId, type ReactNode, type Ref, type SelectHTMLAttributes } from "react";
import { controlClass, FieldError, FieldHint, fieldIds } from "./field-parts";

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

export function Select({ label, options, hint, error, id, className = "", ref, "aria-describedby": extraDescribedBy, ...select }: SelectProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const { hintId, errorId, describedBy } = fieldIds(fieldId, hint, error, extraDescribedBy);
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-gray-900">{label}</label>
      <select
        id={fieldId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={controlClass(!!error)}
        {...select}
      >
        {options.map((o) => (
          <option key={String(o.value)} value={o.value}>{o.label}</option>
        ))}
      </select>
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
