// Loading indicators: a spinner with an accessible label, and skeleton blocks for content that is on its way.
export function Spinner({
  label,
  size = "md",
  decorative = false,
}: {
  label?: string;
  size?: "sm" | "md";
  decorative?: boolean;
}) {
  const dims = size === "sm" ? "h-4 w-4 border-2" : "h-6 w-6 border-[3px]";
  const circle = (
    <span
      className={`inline-block animate-spin rounded-full border-current border-t-transparent ${dims}`}
      aria-hidden="true"
    />
  );
  if (decorative) return circle;
  return (
    <span role="status" className="inline-flex items-center gap-2 text-gray-700">
      {circle}
      <span className={label ? "" : "sr-only"}>{label ?? "…"}</span>
    </span>
  );
}

/** A grey placeholder block; hidden from assistive technology (pair it with a Spinner or an aria-busy region). */
export function Skeleton({ className = "h-4 w-full" }: { className?: string }) {
  return <div aria-hidden="true" className={`animate-pulse rounded bg-gray-200 ${className}`} />;
}

/** A few skeleton lines standing in for a form or a table while it loads. */
export function SkeletonLines({ lines = 4, label }: { lines?: number; label: string }) {
  return (
    <div aria-busy="true" className="space-y-3">
      <span className="sr-only" role="status">
        {label}
      </span>
      {Array.from({ length: lines }, (_, i) => (
        <Skeleton key={i} className={`h-9 ${i % 2 ? "w-2/3" : "w-full"}`} />
      ))}
    </div>
  );
}
