import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMegabytes, formatNumber } from "./number";

const MB = 1048576;
const TAGS = { pl: "pl-PL", en: "en-GB" } as const;

describe("formatNumber", () => {
  it("writes what Intl.NumberFormat writes, in both languages", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.nat(),
          fc.double({ min: 0, max: 1e25, noNaN: true }),
          fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
        ),
        fc.constantFrom("pl" as const, "en" as const),
        fc.constantFrom(0, 1),
        (n, locale, digits) => {
          expect(formatNumber(n, locale, digits)).toBe(
            new Intl.NumberFormat(TAGS[locale], { maximumFractionDigits: digits }).format(n),
          );
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("groups thousands as each language does (Polish leaves four digits ungrouped)", () => {
    expect(formatNumber(1024, "pl")).toBe("1024");
    expect(formatNumber(1024, "en")).toBe("1,024");
    expect(formatNumber(102400, "pl")).toBe("102\u00a0400");
    expect(formatNumber(0.05, "pl", 1)).toBe("0,1");
  });
});

describe("formatMegabytes", () => {
  it("shows one decimal below 10 MB and whole megabytes above", () => {
    expect(formatMegabytes(0, "pl")).toBe("0");
    expect(formatMegabytes(0.2 * MB, "en")).toBe("0.2");
    expect(formatMegabytes(1.5 * MB, "pl")).toBe("1,5");
    expect(formatMegabytes(9.96 * MB, "en")).toBe("10");
    expect(formatMegabytes(617.4 * MB, "pl")).toBe("617");
    expect(formatMegabytes(12345 * MB, "pl")).toBe("12\u00a0345");
  });
});
