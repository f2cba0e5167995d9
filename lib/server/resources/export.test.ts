// The CSV export's encoding rules (lib/server/resources/export.ts).
import { describe, expect, it, vi } from "vitest";
import { csvField, csvLine, encodeWindows1250 } from "./export";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

describe("CSV fields", () => {
  it("quotes separators, quotes and line breaks; defuses formula starts", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a;b")).toBe('"a;b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-5")).toBe("'-5");
    expect(csvLine(["a", "b;c"])).toBe('a;"b;c"\r\n');
  });
});

describe("Windows-1250", () => {
  it("encodes the Polish letters as Excel's code page does, and what it lacks as ?", () => {
    const bytes = encodeWindows1250("Żaneta Górecka, księgowość ŁŚĆ €✓");
    expect(new TextDecoder("windows-1250").decode(bytes)).toBe("Żaneta Górecka, księgowość ŁŚĆ €?");
    expect([...encodeWindows1250("óśł")]).toEqual([0xf3, 0x9c, 0xb3]);
  });
});
