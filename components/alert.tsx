// A message box. Errors use role="alert" (announced at once); the rest use role="status" (announced politely).
import type { ReactNode } from "react";

export type AlertTone = "error" | "success" | "info" | "warning";

const TONES: Record<AlertTone, string> = {
  error: "border-red-700 bg-red-50 text-red-900",
  success: "border-green-700 bg-green-50 text-green-900",
  info: "border-blue-700 bg-blue-50 text-blue-900",
  warning: "border-amber-700 bg-amber-50 text-amber-950",
};

export function Alert({
  tone = "info",
  title,
  children,
  className = "",
}: {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border-l-4 p-3 text-sm ${TONES[tone]} ${className}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? "mt-1" : ""}>{children}</div>}
    </div>
  );
}
