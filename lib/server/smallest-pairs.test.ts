// smallestPairs is the first k of a full sort: for any pairs (with ties in the first number, and equal pairs, which
// may come in either order), any k, and n below the arrays' length (they are reused scratch space).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { smallestPairs } from "./smallest-pairs";

function check(pairs: [number, number][], k: number, spare: number) {
  const first = new Float64Array(pairs.length + spare).fill(-1e9);
  const second = new Float64Array(pairs.length + spare).fill(-1e9);
  pairs.forEach(([a, b], i) => ((first[i] = a), (second[i] = b)));
  const got = [...smallestPairs(first, second, pairs.length, k)].map((i) => pairs[i]);
  const want = [...pairs].sort((x, y) => x[0] - y[0] || x[1] - y[1]).slice(0, k);
  expect(got).toEqual(want);
}

describe("smallestPairs", () => {
  it("keeps the k smallest pairs, smallest first", () => {
    const value = fc.integer({ min: -5, max: 5 });
    fc.assert(
      fc.property(fc.array(fc.tuple(value, fc.integer({ min: -50, max: 50 })), { maxLength: 200 }), fc.nat(220), fc.nat(5), check),
      { numRuns: 500 },
    );
  });

  it("handles descending input, k of one and k of all", () => {
    const pairs = Array.from({ length: 1000 }, (_, i): [number, number] => [-(i >> 3), -i]);
    for (const k of [0, 1, 2, 50, 999, 1000, 1001]) check(pairs, k, 0);
  });
});
