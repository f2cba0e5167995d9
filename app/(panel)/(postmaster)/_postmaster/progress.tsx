// Progress of a long bulk operation: the label, "done of total" in text, and a bar (never colour alone).
export function Progress({ label, done, total, of }: { label: string; done: number; total: number; of: string }) {
  const pct = total > 0 ? Math.round((done / total) * 100) : 0;
  const text = `${done} ${of} ${total}`;
  return (
    <div role="status" className="text-sm">
      <div className="mb-1 flex justify-between gap-2">
        <span>{label}</span>
        <span className="tabular-nums">{text}</span>
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
        <div className="h-full bg-blue-700" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
