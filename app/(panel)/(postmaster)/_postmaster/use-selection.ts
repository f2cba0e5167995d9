// The resource table's selection: ticked names that survive paging and sorting, or "all N matching" a search (every
// row the search finds, on every page, except the ones unticked since).
import { useCallback, useState } from "react";

export interface AllMatching {
  search: string;
  total: number;
  except: Set<string>;
}

export function useSelection(pageRows: { name: string }[]) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState<AllMatching | null>(null);

  const isSelected = (name: string) => (allMatching ? !allMatching.except.has(name) : selected.has(name));
  const count = allMatching ? allMatching.total - allMatching.except.size : selected.size;
  const pageAll = pageRows.length > 0 && pageRows.every((r) => isSelected(r.name));

  // Stable: a new search clears the selection from inside the table's memoised handlers.
  const clear = useCallback(() => {
    setSelected(new Set());
    setAllMatching(null);
  }, []);
  /** Flips the given names: off when `off`, else on; inside "all matching" it edits the exceptions. */
  const flip = (names: string[], off: (name: string) => boolean) => {
    if (allMatching) {
      const except = new Set(allMatching.except);
      for (const n of names)
        if (off(n)) except.add(n);
        else except.delete(n);
      setAllMatching({ ...allMatching, except });
      return;
    }
    setSelected((s) => {
      const next = new Set(s);
      for (const n of names)
        if (off(n)) next.delete(n);
        else next.add(n);
      return next;
    });
  };
  const toggle = (name: string) => flip([name], isSelected);
  const togglePage = () =>
    flip(
      pageRows.map((r) => r.name),
      () => pageAll,
    );
  const selectAllMatching = (search: string, total: number) => setAllMatching({ search, total, except: new Set() });
  const unselect = (names: string[]) => setSelected((s) => new Set([...s].filter((n) => !names.includes(n))));

  return {
    selected,
    allMatching,
    isSelected,
    count,
    pageAll,
    clear,
    toggle,
    togglePage,
    selectAllMatching,
    unselect,
  };
}

export type Selection = ReturnType<typeof useSelection>;
