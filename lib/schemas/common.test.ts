import { describe, expect, it } from "vitest";
import {
  isAccountName,
  isDomainName,
  isEmail,
  isIsoDate,
  isListName,
  multilineText,
  passwordProblems,
  sieveSpamList,
  SPAM_LIST_MAX_CHARACTERS,
  text,
} from "./common";
import { issueAttributes } from "./fields";
import { errorDetailText } from "@/lib/errors/details";

describe("account names (contract §8)", () => {
  it.each(["ab", "a1", "jan.nowak", "jan_nowak", "jan-nowak", "a".repeat(32), "007", "a.b-c_d"])("accepts %s", (n) =>
    expect(isAccountName(n)).toBe(true),
  );
  it.each(["a", "a".repeat(33), "Jan", ".jan", "jan.", "jan..nowak", "jan._nowak", "jan/nowak", "jan nowak", "ąb", ""])(
    "refuses %s",
    (n) => expect(isAccountName(n)).toBe(false),
  );
});

describe("list names", () => {
  it.each(["ab", "dev/team", "a.b-c", "x".repeat(32)])("accepts %s", (n) => expect(isListName(n)).toBe(true));
  it.each(["a", "x".repeat(33), "dev//team", "a_b", "/ab", "ab-", "a./b"])("refuses %s", (n) =>
    expect(isListName(n)).toBe(false),
  );
});

describe("domains and addresses", () => {
  it.each(["example.com", "a.b.example.pl", "xn--bcher-kva.example", "x-1.io"])("domain %s", (d) =>
    expect(isDomainName(d)).toBe(true),
  );
  it.each(["localhost", "Example.com", "-a.com", "a-.com", "a..com", "a.c", `${"a".repeat(64)}.com`])(
    "not domain %s",
    (d) => expect(isDomainName(d)).toBe(false),
  );
  it("addresses", () => {
    expect(isEmail("jan.nowak@example.com")).toBe(true);
    expect(isEmail("a+tag@example.com")).toBe(true);
    expect(isEmail("@example.com")).toBe(false);
    expect(isEmail("a..b@example.com")).toBe(false);
    expect(isEmail("a@b@example.com")).toBe(false);
    expect(isEmail(`${"a".repeat(65)}@example.com`)).toBe(false);
  });
});

describe("dates", () => {
  it("accepts real days only", () => {
    expect(isIsoDate("2024-02-29")).toBe(true);
    expect(isIsoDate("2023-02-29")).toBe(false);
    expect(isIsoDate("2024-13-01")).toBe(false);
    expect(isIsoDate("2024-1-01")).toBe(false);
  });
});

describe("password rule", () => {
  it.each([
    ["abc12", ["length"]],
    ["abc123", []],
    ["abcdefghijklm1x", []],
    ["abcdefghijklm1xy", ["length"]],
    ["abcdef", ["digitOrSpecial"]],
    ["123456", ["letter"]],
    ["abcde!", []],
    ["abcde$", ["digitOrSpecial", "characters"]],
    ["abc 123", ["characters"]],
  ] as const)("%s", (pw, problems) => expect(passwordProblems(pw)).toEqual(problems));
});

describe("text fields (contract §9)", () => {
  const one = text(100);
  const multi = multilineText(100);
  it.each(["", "Jan Nowak", "zażółć gęślą jaźń", "emoji 😀", "a\u0080b"])("one-line accepts %j", (s) =>
    expect(one.safeParse(s).success).toBe(true),
  );
  it.each([
    "\u0000",
    "a\r\nBcc: evil@x.test",
    "\n",
    "\t",
    "\u001b[31m",
    "\u007f",
    "lone \ud800",
    "x".repeat(101),
    "gpj\u202eexe",
    "\u202a",
    "\u202d",
    "\u2066x",
    "\u2069",
  ])("one-line refuses %j", (s) => expect(one.safeParse(s).success).toBe(false));
  it("multi-line takes line breaks and tabs, storing CR-LF and CR as LF", () => {
    expect(multi.parse("a\r\nb\rc\n\td")).toBe("a\nb\nc\n\td");
  });
  it.each(["\u0000", "a\u000bb", "\u000c", "\u001f", "\u007f", "\udc00"])("multi-line refuses %j", (s) =>
    expect(multi.safeParse(s).success).toBe(false),
  );
});

describe("free texts are counted and stored composed (NFC)", () => {
  // "Zażółć gęślą jaźń" as macOS types it: each accented letter a base letter and a combining mark.
  const decomposed = "Zażółć gęślą jaźń, księgowość i sprzedaż, Łódź".normalize("NFD");
  it("counts a letter with its accent as one character", () => {
    expect(decomposed.length).toBeGreaterThan(48);
    const parsed = text(48).safeParse(decomposed);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toBe(decomposed.normalize("NFC"));
    expect(multilineText(48).parse(decomposed)).toBe(decomposed.normalize("NFC"));
  });
  it("still refuses what is too long composed", () => expect(text(48).safeParse("ś".repeat(49)).success).toBe(false));
});

describe("a white or black list over SPAM_LIST_MAX_CHARACTERS", () => {
  it("is refused with the limit, which the error's detail writes grouped in each language", () => {
    const domain = `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.pl`;
    const entries = Array.from({ length: 80 }, (_, i) => `u${i}@${domain}`);
    const parsed = sieveSpamList().safeParse(entries);
    expect(parsed.success).toBe(false);
    const attributes = issueAttributes(parsed.error!.issues);
    expect(attributes).toMatchObject({ max_characters: SPAM_LIST_MAX_CHARACTERS });
    expect(errorDetailText(attributes, "pl")).toContain("Najwyżej 15\u00a0000 znaków łącznie.");
    expect(errorDetailText(attributes, "en")).toContain("At most 15,000 characters in all.");
  });
});
