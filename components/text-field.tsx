// A labelled text input (or textarea) with hint and error wired to aria-describedby / aria-invalid.
// Works with react-hook-form's register(): name, onChange, onBlur and ref pass straight through.
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from "react";
import { controlClass, FieldError, FieldHint, fieldIds } from "./field-parts";

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The message shown under the field; its presence marks the field invalid. */
  error?: string;
}

export interface TextFieldProps extends FieldProps, Omit<InputHTMLAttributes<HTMLInputElement>, "children"> {
  ref?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, id, className = "", ref, "aria-describedby": extraDescribedBy, ...input }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const { hintId, errorId, describedBy } = fieldIds(fieldId, hint, error, extraDescribedBy);
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-gray-900">{label}</label>
      <input
        id={fieldId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={controlClass(!!error)}
        {...input}
      />
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

export interface TextAreaProps extends FieldProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "children"> {
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextArea({ label, hint, error, id, className = "", rows = 4, ref, "aria-describedby": extraDescribedBy, ...textarea }: TextAreaProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const { hintId, errorId, describedBy } = fieldIds(fieldId, hint, error, extraDescribedBy);
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="mb-1 block text-sm font-medium text-gray-900">{label}</label>
      <textarea
        id={fieldId}
        ref={ref}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={controlClass(!!error)}
        {...textarea}
      />
      <FieldHint id={hintId}>{hint}</FieldHint>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
