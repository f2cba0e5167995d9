// A text list gives back each text exactly as added: any UTF-16 units (lone surrogates too), and texts longer than
// one String.fromCharCode call takes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TextList, TextListBuilder } from "./text-list";

const units = (max: number) => fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: max }).map((u) => String.fromCharCode(...u));

describe("TextList", () => {
  it("gives back every text as added", () => {
    fc.assert(
      fc.property(fc.array(units(40), { maxLength: 12 }), fc.nat(3), (short, at) => {
        // One text of several String.fromCharCode calls, among the short ones.
        const long = Array.from({ length: 10_000 }, (_, i) => String.fromCharCode((i * 7919) % 0x10000)).join("");
        const texts = [...short.slice(0, at), long, ...short.slice(at)];
        const list = TextList.of(texts);
        expect(list.length).toBe(texts.length);
        texts.forEach((text, i) => {
          expect(list.text(i)).toBe(text);
          expect(list.lengthOf(i)).toBe(text.length);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe("JoinedTexts", () => {
  it("gives back every text as added, across join groups", () => {
    fc.assert(
      fc.property(fc.array(units(12), { minLength: 1, maxLength: 3000 }), (texts) => {
        const builder = new TextListBuilder(true);
        for (const text of texts) builder.add(text);
        const joined = builder.joined();
        texts.forEach((text, i) => expect(joined.text(i)).toBe(text));
      }),
      { numRuns: 30 },
    );
  });
});
