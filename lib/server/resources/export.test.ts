// The CSV export's encoding rules (lib/server/resources/export.ts).
import { describe, expect, it, vi } from "vitest";
import { fieldLabel } from "@/lib/i18n/field-words";
import { COLUMN_WORDS, csvField, csvLine, encodeWindows1250, exportHeaders } from "./export";

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

describe("header rows", () => {
  it("are the panel's words in either language", () => {
    expect(exportHeaders("accounts", "pl")).toEqual([
      "Adres",
      "Opis",
      "Pojemność (MB)",
      "Zajęte (bajty)",
      "Zajętość",
      "Zablokowane",
      "Utworzone",
      "Wygasa",
      "Ostatnie logowanie",
    ]);
    expect(exportHeaders("accounts", "en")).toEqual([
      "Address",
      "Description",
      "Capacity (MB)",
      "Used (bytes)",
      "Usage",
      "Blocked",
      "Created",
      "Expires",
      "Last sign-in",
    ]);
    expect(exportHeaders("aliases", "pl")).toEqual(["Adres", "Cel"]);
    expect(exportHeaders("aliases", "en")).toEqual(["Address", "Target"]);
    expect(exportHeaders("lists", "pl")).toEqual([
      "Adres",
      "Opis",
      "Prywatność",
      "Odpowiedzi do",
      "Zapis przez SUBSCRIBE",
    ]);
    expect(exportHeaders("lists", "en")).toEqual([
      "Address",
      "Description",
      "Privacy",
      "Replies go to",
      "SUBSCRIBE by mail",
    ]);
  });

  it("take field-words' label except where the export's own word is listed, and that word differs from it", () => {
    for (const locale of ["pl", "en"] as const) {
      for (const [field, words] of Object.entries(COLUMN_WORDS.short) as [string, Partial<Record<string, string>>][])
        if (words[locale] !== undefined)
          expect(words[locale], `${field} (${locale}) is field-words' label: drop it from COLUMN_WORDS`).not.toBe(
            fieldLabel(field, locale),
          );
      for (const field of Object.keys(COLUMN_WORDS.fields))
        expect(fieldLabel(field, locale), `field-words names ${field}: move it to COLUMN_WORDS.short or drop it`).toBe(
          field,
        );
    }
  });
});
