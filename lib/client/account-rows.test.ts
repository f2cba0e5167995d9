// Bulk create's input rows: CSV splitting, header skipping, full addresses, generated passwords and row checks.
import { describe, expect, it } from "vitest";
import { generatePassword } from "@/lib/schemas/common";
import { parseRows, passwordsCsv, splitLine } from "./account-rows";

describe("splitLine", () => {
  it("splits on semicolons, or commas when a line has none, with CSV quotes", () => {
    expect(splitLine("a;b;10;opis, z przecinkiem")).toEqual(["a", "b", "10", "opis, z przecinkiem"]);
    expect(splitLine("a,b,10,opis")).toEqual(["a", "b", "10", "opis"]);
    expect(splitLine('a;;;"Dział ""IT""; piętro 2"')).toEqual(["a", "", "", 'Dział "IT"; piętro 2']);
  });
  it("with a maximum, the last field is the rest of the line as written", () => {
    expect(splitLine("a,b,10,Kowalski, Jan (sprzedaż)", 4)).toEqual(["a", "b", "10", "Kowalski, Jan (sprzedaż)"]);
    expect(splitLine("a;b;10;x; y", 4)).toEqual(["a", "b", "10", "x; y"]);
    expect(splitLine('a,b,10,"Nowak, ""Jan"""', 4)).toEqual(["a", "b", "10", 'Nowak, "Jan"']);
    expect(splitLine("a,b", 4)).toEqual(["a", "b"]);
  });
});

describe("parseRows", () => {
  const fixed = () => "Gen3rated1";
  it("skips a header and empty lines, takes full addresses of the domain, generates missing passwords", () => {
    const rows = parseRows(
      "name;password;capacity;description\n\nanna@d.pl;Haslo-123;500;Księgowość\njan;;;\n",
      "d.pl",
      fixed,
    );
    expect(rows).toEqual([
      {
        line: 3,
        name: "anna",
        password: "Haslo-123",
        generated: false,
        capacity: 500,
        description: "Księgowość",
        problem: null,
      },
      { line: 4, name: "jan", password: "Gen3rated1", generated: true, capacity: 1024, description: "", problem: null },
    ]);
  });
  it("ignores rows with no value in any field, as Excel saves them after the data", () => {
    const rows = parseRows(
      ';;;\r\nnazwa;hasło;pojemność;opis\r\nanna;Haslo-123;;\r\n;;;\r\n,,,\r\n"";"";;\r\n ; ; ; \r\n',
      "d.pl",
      fixed,
    );
    expect(rows.map((r) => [r.line, r.name, r.problem])).toEqual([[3, "anna", null]]);
  });
  it("skips the export's header row in either language", () => {
    for (const header of ["Adres;Opis;Pojemność (MB)", "Address;Description;Capacity (MB)"]) {
      expect(parseRows(`${header}\njan;Haslo-123;10`, "d.pl", fixed).map((r) => r.name)).toEqual(["jan"]);
    }
  });
  it("keeps a description's commas and spaces on a line separated by commas", () => {
    const [row] = parseRows("bulk.two,Haslo-234,512,Kowalski, Jan", "d.pl", fixed);
    expect(row).toMatchObject({ name: "bulk.two", capacity: 512, description: "Kowalski, Jan", problem: null });
  });
  it("marks each row with the first rule it breaks", () => {
    const rows = parseRows(
      "Zła Nazwa;Haslo-123\nok1;abc\nok2;Haslo-123;dużo\nok3;Haslo-123;10;" +
        "x".repeat(49) +
        "\nok4\nok4\nok5;Haslo-123;Biuro;512",
      "d.pl",
      fixed,
    );
    expect(rows.map((r) => r.problem)).toEqual([
      "invalidAccountName",
      "invalidPassword",
      "invalidCapacity",
      "invalidDescription",
      null,
      "duplicateInInput",
      // The account form's order (description, then capacity) is named as such, not as a bad capacity.
      "columnsSwapped",
    ]);
  });
});

describe("generatePassword", () => {
  it("always meets the password rules (a letter and a digit, 12 characters)", () => {
    for (let i = 0; i < 200; i++) {
      const pw = generatePassword();
      expect(pw).toMatch(/^[a-zA-Z2-9]{12}$/);
      expect(pw).toMatch(/[a-zA-Z]/);
      expect(pw).toMatch(/\d/);
    }
  });
});

describe("passwordsCsv", () => {
  it("writes address;password lines", () => {
    expect(passwordsCsv([{ name: "jan", password: "Abc12345" }], "d.pl")).toBe(
      "address;password\r\njan@d.pl;Abc12345\r\n",
    );
  });
});
