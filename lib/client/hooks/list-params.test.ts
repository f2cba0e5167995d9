// The client restores the server's order of a list page: JavaScript objects put all-digit keys first, so the
// order of result_data's keys cannot be trusted (contract §6). And the form helpers' text <-> list conversion.
import { describe, expect, it } from "vitest";
import type { ListEnvelope } from "@/lib/schemas/list-query";
import { DEFAULT_PAGE_SIZE, filtersFromUrl, listQueryString, sortedRows, type ListFilters } from "./list-params";
import { linesToList, listToLines, recordToForm } from "./use-field-form";

const filters = (sort: string, dir: "asc" | "desc"): ListFilters => ({ page: 0, size: 50, search: "", sort, dir });

function envelope(rows: Record<string, unknown>[]): ListEnvelope<Record<string, unknown>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const r of rows) data[r.name as string] = r;
  return { result_info: { total: rows.length, fetched: rows.length, page_size: 50, page: 0 }, result_data: data };
}

describe("sortedRows", () => {
  it("puts all-digit names back in the service's (text) order", () => {
    const env = envelope([{ name: "anna" }, { name: "biuro" }, { name: "9" }, { name: "zz" }, { name: "10" }]);
    expect(Object.keys(env.result_data).slice(0, 2)).toEqual(["9", "10"]); // what JavaScript does to the order
    expect(sortedRows(env, filters("name", "asc")).map((r) => r.name)).toEqual(["10", "9", "anna", "biuro", "zz"]);
    expect(sortedRows(env, filters("name", "desc")).map((r) => r.name)).toEqual(["zz", "biuro", "anna", "9", "10"]);
  });

  it("sorts numbers (also with a % suffix) by value and ties by name in the same direction", () => {
    const env = envelope([
      { name: "123", usage: "9%" },
      { name: "b", usage: "10%" },
      { name: "a", usage: "10%" },
      { name: "c", usage: "100%" },
    ]);
    expect(sortedRows(env, filters("usage", "asc")).map((r) => r.name)).toEqual(["123", "a", "b", "c"]);
    expect(sortedRows(env, filters("usage", "desc")).map((r) => r.name)).toEqual(["c", "b", "a", "123"]);
  });

  it("sorts dates as text with empty values first, like the service", () => {
    const env = envelope([
      { name: "x", expiration_date: "2027-01-01" },
      { name: "y", expiration_date: "" },
      { name: "z", expiration_date: "2026-05-01" },
    ]);
    expect(sortedRows(env, filters("expiration_date", "asc")).map((r) => r.name)).toEqual(["y", "z", "x"]);
  });
});

describe("list query and form conversions", () => {
  it("builds the API's query parameters", () => {
    expect(listQueryString({ page: 2, size: 100, search: "jan k", sort: "usage", dir: "desc" })).toBe(
      "page=2&size=100&sort=usage&sort_dir=desc&search=jan+k",
    );
    expect(listQueryString(filters("name", "asc"))).not.toContain("search");
  });

  it("edits arrays as lines", () => {
    expect(linesToList(" a@b.pl \n\nc.pl, d.pl;e.pl\n")).toEqual(["a@b.pl", "c.pl", "d.pl", "e.pl"]);
    expect(listToLines(["a@b.pl", "c.pl"])).toBe("a@b.pl\nc.pl");
    expect(recordToForm({ forwards: ["a@b.pl"], blocked: "1", capacity: 500, description: null }, ["forwards", "blocked", "capacity", "description"], ["forwards"], ["blocked"])).toEqual({
      forwards: "a@b.pl",
      blocked: true,
      capacity: "500",
      description: "",
    });
  });
});

describe("filtersFromUrl", () => {
  const fields = ["name", "capacity"] as const;
  it("reads the URL's filters and falls back to the defaults for anything unknown", () => {
    expect(filtersFromUrl(new URLSearchParams("search=ab&sort=capacity&dir=desc&size=100&page=3"), fields)).toEqual({
      page: 3, size: 100, search: "ab", sort: "capacity", dir: "desc",
    });
    expect(filtersFromUrl(new URLSearchParams("sort=password&dir=up&size=7&page=-2"), fields)).toEqual({
      page: 0, size: DEFAULT_PAGE_SIZE, search: "", sort: "name", dir: "asc",
    });
  });
});
