// How much of a limit is used (mailbox usage, domain counters), or how far a long task has got: a bar plus the number
// in text, never colour alone.
export interface UsageBarProps {
  label: string;
  /** Used amount; with `max` omitted it is a percentage. */
  value: number;
  max?: number;
  /** Text shown beside the label, e.g. "3 / 10" or "45%"; defaults to the percentage. */
  valueText?: string;
  /** A running task's progress: a live status, in one colour (a full bar is no warning). */
  progress?: boolean;
}

export function UsageBar({ label, value, max = 100, valueText, progress }: UsageBarProps) {
  const pct = max > 0 ? Math.min(100, Math.max(0, Math.round((value / max) * 100))) : 0;
  const text = valueText ?? `${pct}%`;
  const color = progress ? "bg-blue-700" : pct >= 90 ? "bg-red-700" : pct >= 75 ? "bg-amber-600" : "bg-blue-700";
  return (
    <div role={progress ? "status" : undefined}>
      <div className="mb-1 flex justify-between gap-2 text-sm text-gray-900">
        <span>{label}</span>
        <span className="whitespace-nowrap tabular-nums">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={text}
        className="h-2.5 w-full overflow-hidden rounded-full bg-gray-200"
      >
        <div className={`h-full ${color}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
