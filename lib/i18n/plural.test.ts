import { describe, expect, it } from "vitest";
import { countOf, type PluralForms } from "./plural";

const ACCOUNTS: PluralForms = {
  pl: { one: "konto", few: "konta", many: "kont", other: "konta" },
  en: { one: "account", other: "accounts" },
};

describe("countOf", () => {
  it("picks the Polish form of each count", () => {
    expect([1, 2, 4, 5, 10, 12, 22, 25, 0].map((n) => countOf("pl", n, ACCOUNTS))).toEqual([
      "1 konto", "2 konta", "4 konta", "5 kont", "10 kont", "12 kont", "22 konta", "25 kont", "0 kont",
    ]);
    expect(countOf("pl", 1500, ACCOUNTS)).toBe("1500 kont");
  });
  it("picks the English form", () => {
    expect([1, 2, 1500].map((n) => countOf("en", n, ACCOUNTS))).toEqual(["1 account", "2 accounts", "1,500 accounts"]);
  });
});
