// A checkbox with its label beside it (the whole label is clickable), plus hint and error.
import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { FieldError, FieldHint, fieldIds } from "./field-parts";

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "children"> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({
  label,
  hint,
  error,
  id,
  className = "",
  ref,
  "aria-describedby": extraDescribedBy,
  ...input
}: CheckboxProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const { hintId, errorId, describedBy } = fieldIds(fieldId, hint, error, extraDescribedBy);
  return (
    <div className={className}>
      <div className="flex items-start gap-2">
        <input
          id={fieldId}
          ref={ref}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="mt-0.5 h-5 w-5 shrink-0 rounded border-gray-500 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
          {...input}
        />
        <label htmlFor={fieldId} className="text-sm text-gray-900">
          {label}
        </label>
      </div>
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
