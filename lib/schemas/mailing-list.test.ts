import { describe, expect, it } from "vitest";
import { errorDetailText } from "@/lib/errors/details";
import { issueAttributes } from "./fields";
import { confirmUrlProblem, mailingListFields } from "./mailing-list";

/** The sentence a refused confirm_url adds to the catalog's "Nieprawidłowe ustawienie listy.", in both languages. */
function detail(value: string, locale: "pl" | "en"): string {
  const parsed = mailingListFields.confirm_url.schema.safeParse(value);
  if (parsed.success) return "";
  return errorDetailText(issueAttributes(parsed.error.issues), locale);
}

describe("confirm_url: which address and why", () => {
  it.each(["", "https://lista.example.com/potwierdz?x=1", "http://a.example"])("accepts %j", (v) => {
    expect(confirmUrlProblem(v)).toBeNull();
    expect(mailingListFields.confirm_url.schema.safeParse(v).success).toBe(true);
  });

  it("a wrong scheme names the address and the rule", () => {
    expect(detail("ftp://zly.example.com", "pl")).toBe(
      "Adres strony potwierdzenia musi zaczynać się od http:// lub https:// (podano: „ftp://zly.example.com”); zostaw pole puste, jeśli lista nie ma własnej strony.",
    );
    expect(detail("lista.example.com", "en")).toBe(
      'The confirmation page URL must start with http:// or https:// (given: "lista.example.com"); leave it empty if the list has no page of its own.',
    );
  });

  it("white space is its own reason", () => {
    expect(confirmUrlProblem("https://a.example/x y")).toBe("space");
    expect(detail("https://a.example/x y", "pl")).toBe(
      "Adres strony potwierdzenia nie może zawierać spacji (podano: „https://a.example/x y”).",
    );
    expect(detail(" https://a.example/", "en")).toBe(
      'The confirmation page URL must not contain spaces (given: " https://a.example/").',
    );
  });

  it("too long says the length allowed", () => {
    expect(detail(`https://a.example/${"x".repeat(2000)}`, "pl")).toContain("Najwyżej 2000 znaków.");
  });
});
