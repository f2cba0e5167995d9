// The resource table's columns: their shape and the two every resource shares (name, description).
import type { ReactNode } from "react";

export interface Column<Row> {
  /** The sort field (when sortable) and the column's id. */
  key: string;
  label: string;
  sortable?: boolean;
  /** Hidden below the md breakpoint (the name cell shows what matters of it there). */
  wide?: boolean;
  /**
   * A wide column shown only from a later breakpoint, where the other columns leave it room (below it the row's page
   * or editor shows the value, and the sort select offers its sort).
   */
  from?: ShownFrom;
  /** Header and cell classes (width, alignment). */
  className?: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The name column: the row's name (a link, badges), and below it on narrow screens the key facts of the columns
 * hidden there, so a row reads whole at 375 px. Below md this column takes what the check box and the buttons leave:
 * the facts break anywhere (a description's long word) and `name` should show its address with Address's
 * `phoneColumn`, so that nothing but the domain sets the column's minimum and widens the table past its card.
 */
export function nameColumn<R>(
  label: string,
  width: string,
  name: (r: R) => ReactNode,
  narrowFacts: (r: R) => ReactNode,
): Column<R> {
  return {
    key: "name",
    label,
    className: width,
    cell: (r) => (
      <div className="space-y-1">
        {name(r)}
        <div className="space-y-1 text-xs text-gray-800 wrap-anywhere md:hidden">{narrowFacts(r)}</div>
      </div>
    ),
  };
}

/** A description column: wraps to two lines instead of being cut short. */
export function descriptionColumn<R extends { description: string }>(label: string): Column<R> {
  return {
    key: "description",
    label,
    wide: true,
    cell: (r) => (
      <p className="line-clamp-2 break-words" title={r.description}>
        {r.description}
      </p>
    ),
  };
}

export type ShownFrom = "lg" | "xl";
/** Whole class names, so that Tailwind finds them. */
const SHOWN_FROM: Record<ShownFrom, string> = { lg: "hidden lg:table-cell ", xl: "hidden xl:table-cell " };

export const cellClass = (c: { wide?: boolean; from?: ShownFrom; className?: string }) =>
  `${c.from ? SHOWN_FROM[c.from] : c.wide ? "twide " : ""}${c.className ?? ""}`;

/** The breakpoint from which every sortable column is shown: below it the table needs the sort select. */
export function sortableShownFrom(columns: { sortable?: boolean; from?: ShownFrom }[]): "md" | ShownFrom {
  const from = columns.filter((c) => c.sortable !== false).map((c) => c.from);
  return from.includes("xl") ? "xl" : from.includes("lg") ? "lg" : "md";
}
