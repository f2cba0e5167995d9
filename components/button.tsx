// The panel's one button. `type` defaults to "button" so a button inside a form never submits by accident.
import type { ButtonHTMLAttributes, Ref } from "react";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";

const VARIANTS: Record<ButtonVariant, string> = {
  // Disabled and not busy: grey with dark text (white on blue-400 was 2.9:1, hard to read); busy keeps its colour.
  primary:
    "bg-blue-700 text-white hover:bg-blue-800 disabled:bg-blue-400 disabled:not-aria-busy:bg-gray-200 disabled:not-aria-busy:text-gray-700",
  secondary: "border border-gray-400 bg-white text-gray-900 hover:bg-gray-100 disabled:text-gray-500",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-400",
  ghost: "text-blue-800 underline-offset-2 hover:underline disabled:text-gray-500",
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows a spinner, disables the button and tells assistive technology it is busy. */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = "primary",
  loading = false,
  disabled,
  className = "",
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={`inline-flex min-h-10 items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {loading && <Spinner size="sm" decorative />}
      {children}
    </button>
  );
}
