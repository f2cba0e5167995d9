// A compact usage bar for table cells (the shared UsageBar carries its own label line, too tall for a row).
/** Usage against a limit as its number over a bar (stacked: "1 024 MB z 10 240 MB" beside a bar needed 190 px). */
export function Meter({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  const pct = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  const color = pct >= 90 ? "bg-red-700" : pct >= 75 ? "bg-amber-600" : "bg-blue-700";
  return (
    <div className="meter">
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(value, max)}
        aria-valuetext={text}
        className="meter-bar"
      >
        <div className={`h-full ${color}`} style={{ width: `${pct}%` }} />
      </div>
      {/* The meter's aria-valuetext already says it: hidden from screen readers so the cell is read once. */}
      <span aria-hidden="true" className="meter-text">
        {text}
      </span>
    </div>
  );
}
