import { UsageBar } from "@/components";

// Progress of a long bulk operation: the label, "done of total" in text, and a bar.
export function Progress({ label, done, total, of }: { label: string; done: number; total: number; of: string }) {
  return <UsageBar progress label={label} value={done} max={total} valueText={`${done} ${of} ${total}`} />;
}
