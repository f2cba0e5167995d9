import { describe, expect, it } from "vitest";
import { counted, countOf } from "./plural";

const FORWARDS = { one: "przekierowanie", few: "przekierowania", many: "przekierowań", other: "przekierowania" };

describe("counted", () => {
  it("picks the Polish form by Intl.PluralRules", () => {
    expect([1, 2, 3, 4, 5, 12, 21, 22, 25, 104].map((n) => counted("pl", n, FORWARDS))).toEqual([
      "1 przekierowanie",
      "2 przekierowania",
      "3 przekierowania",
      "4 przekierowania",
      "5 przekierowań",
      "12 przekierowań",
      "21 przekierowań",
      "22 przekierowania",
      "25 przekierowań",
      "104 przekierowania",
    ]);
    expect(counted("pl", 0, FORWARDS)).toBe("0 przekierowań");
  });
  it("has one and other in English", () => {
    const forms = { one: "forward", other: "forwards" };
    expect([0, 1, 3].map((n) => counted("en", n, forms))).toEqual(["0 forwards", "1 forward", "3 forwards"]);
  });
});

describe("countOf", () => {
  const ACCOUNTS = {
    pl: { one: "konto", few: "konta", many: "kont", other: "konta" },
    en: { one: "account", other: "accounts" },
  };
  it("counts in the given language", () => {
    expect([1, 2, 5, 10, 22, 1500].map((n) => countOf("pl", n, ACCOUNTS))).toEqual([
      "1 konto",
      "2 konta",
      "5 kont",
      "10 kont",
      "22 konta",
      "1500 kont",
    ]);
    expect(countOf("en", 1, ACCOUNTS)).toBe("1 account");
    // Grouped as each language groups: Polish from five digits, with a no-break space.
    expect(countOf("pl", 15000, ACCOUNTS)).toBe("15\u00a0000 kont");
    expect(countOf("en", 1500, ACCOUNTS)).toBe("1,500 accounts");
  });
});
