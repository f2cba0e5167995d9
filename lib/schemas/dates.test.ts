import { describe, expect, it } from "vitest";
import { parseTypedDate, readTypedDate } from "./dates";

describe("typed dates", () => {
  it("reads D.M.YYYY and YYYY-MM-DD as the API's YYYY-MM-DD", () => {
    expect(readTypedDate("1.7.2030")).toEqual({ kind: "date", iso: "2030-07-01" });
    expect(readTypedDate(" 2030-07-01 ")).toEqual({ kind: "date", iso: "2030-07-01" });
    expect(readTypedDate("29/02/2024")).toEqual({ kind: "date", iso: "2024-02-29" });
    expect(readTypedDate("")).toEqual({ kind: "empty" });
  });

  it("tells a day the calendar lacks from text that is no date", () => {
    expect(readTypedDate("31.02.2026")).toEqual({ kind: "noSuchDay", iso: "2026-02-31" });
    expect(readTypedDate("2023-02-29")).toEqual({ kind: "noSuchDay", iso: "2023-02-29" });
    expect(readTypedDate("31.13.2026")).toEqual({ kind: "noSuchDay", iso: "2026-13-31" });
    expect(readTypedDate("jutro")).toEqual({ kind: "format" });
    expect(readTypedDate("2026.02.01")).toEqual({ kind: "format" });
  });

  it("keeps what is no real day as typed, so the form's rule refuses it", () => {
    expect(parseTypedDate("31.02.2026")).toBe("31.02.2026");
    expect(parseTypedDate("01.07.2030")).toBe("2030-07-01");
    expect(parseTypedDate("  ")).toBe("");
  });
});
