// Binary search in ascending numbers: a search's match ids (match-walk.ts) and a held table's ids
// (substring-table.ts).

/** The index of `value` in `ascending`, or -1. */
export function indexInAscending(ascending: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = ascending.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = ascending[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
