// sortedIndexes is a stable sort (equal elements keep their index order) that gives way between merges; finish
// runs steps to their result.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { finish, sortedIndexes } from "./steps";

describe("sortedIndexes", () => {
  it("orders indexes by the comparison, equal ones by index", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 300 }), (values) => {
        const got = [...finish(sortedIndexes(values.length, (a, b) => values[a]! - values[b]!))];
        const want = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
        expect(got).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("yields within merges on long input", () => {
    const steps = sortedIndexes(100_000, (a, b) => (a % 1000) - (b % 1000));
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(50);
    expect(step.value[0]).toBe(0);
    expect([step.value[1], step.value[99], step.value[100]]).toEqual([1000, 99_000, 1]);
  });
});
