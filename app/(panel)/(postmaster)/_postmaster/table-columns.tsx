// The resource table's columns: their shape and the two every resource shares (name, description).
import type { ReactNode } from "react";

export interface Column<Row> {
  /** The sort field (when sortable) and the column's id. */
  key: string;
  label: string;
  sortable?: boolean;
  /** Hidden below the md breakpoint (the name cell shows what matters of it there). */
  wide?: boolean;
  /** Header and cell classes (width, alignment). */
  className?: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The name column: the row's name (a link, badges), and below it on narrow screens the key facts of the columns
 * hidden there, so a row reads whole at 375 px.
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
        <div className="space-y-1 text-xs text-gray-800 md:hidden">{narrowFacts(r)}</div>
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

export const cellClass = (c: { wide?: boolean; className?: string }) => `${c.wide ? "twide " : ""}${c.className ?? ""}`;
