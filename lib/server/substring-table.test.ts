// SubstringTable answers exactly "the key contains the text" (what the LIKE and the FTS5 phrase of list-page.ts
// mean): for any keys and texts, short and longer than the sorted depth, with repeats, with the key's end inside
// the text, and with more distinct units than one byte can number.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SubstringTable } from "./substring-table";
import { TextList } from "./text-list";

function naive(ids: Int32Array, keys: string[], text: string, stale: Set<number>): number[] {
  return [...ids].filter((id, slot) => !stale.has(id) && keys[slot]!.includes(text));
}

function check(keys: string[], texts: string[], staleEvery = 0) {
  const ids = Int32Array.from(keys, (_, i) => 10 + i * 3);
  const table = SubstringTable.build(ids, TextList.of(keys))!;
  const stale = new Set<number>();
  for (let i = 0; staleEvery && i < ids.length; i += staleEvery) {
    table.markStale(ids[i]!);
    stale.add(ids[i]!);
  }
  // Each text twice in a row: the second search takes the first one's pass.
  for (const text of texts.flatMap((t) => [t, t])) {
    const want = naive(ids, keys, text, stale);
    const search = table.search(text);
    expect(search.count()).toBe(want.length);
    expect(search.ids()).toEqual(want);
    for (const id of [...ids, 9, 11, 10 + keys.length * 3]) expect(search.has(id)).toBe(want.includes(id));
  }
}

const alphabet = ["a", "b", "ą", "ł", ".", " ", "\u0001", "😀", "ß"];
const key = fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }).map((a) => a.join(""));

describe("SubstringTable", () => {
  it("finds exactly the keys that contain the text, for any keys and texts", () => {
    fc.assert(
      fc.property(
        fc.array(key, { minLength: 1, maxLength: 40 }),
        fc.array(fc.array(fc.constantFrom(...alphabet), { minLength: 3, maxLength: 9 }).map((a) => a.join("")), { maxLength: 8 }),
        fc.constantFrom(0, 2, 5),
        (keys, texts, staleEvery) => {
          // Texts taken from the keys themselves, so most of them match somewhere.
          const inside = keys.filter((k) => k.length >= 4).map((k) => k.slice(1, Math.min(k.length, 9)));
          check(keys, [...texts, ...inside].filter((t) => t.length >= 3), staleEvery);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts a key once however often it holds the text, and reads past the sorted depth", () => {
    const keys = ["kowalkowalkowal", "kowalski\u0001kowalska", "jan.kowalczyk", "kowa", "owal", "abcdefghij", "abcdefgh", "abcdefghix"];
    check(keys, ["kowal", "kowalski", "owa", "abcdefghij", "abcdefgh", "abcdefghi", "bcdefghij", "kowalczyk", "xyz", "a.k", "abcdefx", "kowalsky"]);
  });

  it("passes again after another search or a changed key, not before", () => {
    const keys = ["kowalski", "nowak", "kowalczyk", "jan.kowal"];
    const ids = Int32Array.from([1, 2, 3, 4]);
    const table = SubstringTable.build(ids, TextList.of(keys))!;
    const slotsOf = (text: string) => [...table.search(text).slots()].sort();
    expect(slotsOf("kowal")).toEqual([0, 2, 3]);
    const kept = table.search("kowal");
    expect(slotsOf("nowak")).toEqual([1]);
    expect(kept.count()).toBe(3);
    expect(slotsOf("kowal")).toEqual([0, 2, 3]);
    table.markStale(3);
    expect(slotsOf("kowal")).toEqual([0, 3]);
    expect(table.search("kowal").has(3)).toBe(false);
  });

  it("numbers more than 255 distinct units (two bytes a code)", () => {
    const keys = Array.from({ length: 400 }, (_, i) => `x${String.fromCharCode(0x400 + i)}${String.fromCharCode(0x400 + ((i * 7) % 400))}yz`);
    check(keys, [keys[5]!.slice(0, 3), keys[399]!.slice(1), `${String.fromCharCode(0x400 + 10)}${String.fromCharCode(0x400 + 70)}y`, "yzq"]);
  });
});
