// The list query in the URL and as the API's query text, and the form helpers' text <-> list conversion.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PAGE_SIZE,
  filtersFromUrl,
  pageForUrl,
  pageFromUrl,
  pageQueryString,
  type PageFilters,
} from "./page-params";
import { linesToList, listToLines, recordToForm } from "./use-field-form";

const filters = (sort: string, dir: "asc" | "desc"): PageFilters => ({ page: 0, size: 50, search: "", sort, dir });

describe("list query and form conversions", () => {
  it("builds the API's query parameters", () => {
    expect(pageQueryString({ page: 2, size: 100, search: "jan k", sort: "usage", dir: "desc" })).toBe(
      "page=2&size=100&sort=usage&sort_dir=desc&search=jan+k",
    );
    expect(pageQueryString(filters("name", "asc"))).not.toContain("search");
  });

  it("edits arrays as lines", () => {
    expect(linesToList(" a@b.pl \n\nc.pl, d.pl;e.pl\n")).toEqual(["a@b.pl", "c.pl", "d.pl", "e.pl"]);
    expect(listToLines(["a@b.pl", "c.pl"])).toBe("a@b.pl\nc.pl");
    expect(
      recordToForm(
        { forwards: ["a@b.pl"], blocked: "1", capacity: 500, description: null },
        ["forwards", "blocked", "capacity", "description"],
        ["forwards"],
        ["blocked"],
      ),
    ).toEqual({
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
      page: 2,
      size: 100,
      search: "ab",
      sort: "capacity",
      dir: "desc",
    });
    expect(filtersFromUrl(new URLSearchParams("sort=password&dir=up&size=7&page=-2"), fields)).toEqual({
      page: 0,
      size: DEFAULT_PAGE_SIZE,
      search: "",
      sort: "name",
      dir: "asc",
    });
  });
});

describe("the URL's page number", () => {
  it("is the pager's, from 1, while the API's index counts from 0", () => {
    expect(pageFromUrl("1")).toBe(0);
    expect(pageFromUrl("2")).toBe(1);
    expect(pageForUrl(1)).toBe("2");
    for (const index of [0, 1, 7, 59]) expect(pageFromUrl(pageForUrl(index))).toBe(index);
  });
  it("reads an absent, 0 (an old link's first page) or malformed number as the first page", () => {
    for (const raw of [null, "", "0", "-3", "x", "1.5"]) expect(pageFromUrl(raw)).toBe(0);
    expect(pageForUrl(0)).toBeNull();
  });
});
