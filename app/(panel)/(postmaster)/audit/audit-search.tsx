"use client";
// The audit log's search, as the tables': the log is asked for once typing pauses, and the search stays in the URL.
import { useRouter } from "next/navigation";
import { SearchBox } from "../_postmaster/list-controls";

export function AuditSearch({ value, label, hint }: { value: string; label: string; hint: string }) {
  const router = useRouter();
  const onChange = (search: string) => {
    const q = new URLSearchParams();
    if (search.trim()) q.set("search", search.trim());
    router.replace(q.size ? `/audit?${q}` : "/audit", { scroll: false });
  };
  return (
    <div role="search">
      <SearchBox value={value} onChange={onChange} label={label} hint={hint} />
    </div>
  );
}
