// Pasted list members: nothing valid cut into pieces, display names dropped, the rest reported whole.
import { describe, expect, it } from "vitest";
import { parsePastedAddresses, splitEntries } from "./pasted-addresses";

describe("pasted addresses", () => {
  it("splits at line breaks, commas and semicolons, not inside quotes or brackets, and never at spaces", () => {
    expect(splitEntries('"Nowak, Jan" <jan@x.pl>; Anna Kowalska <anna@x.pl>,\r\nbiuro@x.pl\n\n')).toEqual([
      '"Nowak, Jan" <jan@x.pl>',
      "Anna Kowalska <anna@x.pl>",
      "biuro@x.pl",
    ]);
    // A quote left open ends with its line.
    expect(splitEntries('"Nowak <jan@x.pl>\nanna@x.pl')).toEqual(['"Nowak <jan@x.pl>', "anna@x.pl"]);
  });

  it("takes the address of a mail program's entry and lowercases it, each once", () => {
    expect(
      parsePastedAddresses(
        'Jan Nowak <Jan.Nowak@X.pl>, "Kowalska, Anna" <anna@x.pl>; <biuro@x.pl>\njan.nowak@x.pl\n  klient@example.org ',
      ),
    ).toEqual({ addresses: ["jan.nowak@x.pl", "anna@x.pl", "biuro@x.pl", "klient@example.org"], invalid: [] });
  });

  it("reads an entry of addresses separated by spaces as those addresses", () => {
    expect(parsePastedAddresses("a@x.pl b@x.pl\tc@x.pl")).toEqual({
      addresses: ["a@x.pl", "b@x.pl", "c@x.pl"],
      invalid: [],
    });
  });

  it("reports anything else whole, as pasted, and keeps no piece of it", () => {
    expect(parsePastedAddresses("Jan Nowak jan@x.pl\nzły adres@\nJan <nie adres>, ok@x.pl")).toEqual({
      addresses: ["ok@x.pl"],
      invalid: ["Jan Nowak jan@x.pl", "zły adres@", "Jan <nie adres>"],
    });
  });
});
