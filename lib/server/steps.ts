// Work done in steps: generators that yield every so often, so that a long computation can share the event loop
// with requests. held-search.ts builds its tables this way (2.2-2.4 s of work for a 100,000-account domain), a few
// milliseconds at a time.

/** Runs the steps to their end, for their result. */
export function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How many comparisons of a merge sort run between two yields (a few milliseconds at most). */
const COMPARISONS_A_STEP = 16_384;

/**
 * 0 .. n-1 in order of `compare`, equal ones in index order, sorted in steps: a bottom-up merge sort, which (unlike
 * Array.prototype.sort) can stop between any two comparisons.
 */
export function* sortedIndexes(n: number, compare: (a: number, b: number) => number): Generator<void, Int32Array> {
  let from = new Int32Array(n);
  let to = new Int32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  let comparisons = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let start = 0; start < n; start += 2 * width) {
      const middle = Math.min(start + width, n);
      const end = Math.min(start + 2 * width, n);
      let i = start;
      let j = middle;
      let k = start;
      // The last passes merge runs of tens of thousands: they give way inside a merge too.
      while (i < middle && j < end) {
        to[k++] = compare(from[j]!, from[i]!) < 0 ? from[j++]! : from[i++]!;
        if (++comparisons >= COMPARISONS_A_STEP) {
          comparisons = 0;
          yield;
        }
      }
      while (i < middle) to[k++] = from[i++]!;
      while (j < end) to[k++] = from[j++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}
