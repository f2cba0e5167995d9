/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON */
// What the list endpoints return for page, size, sort, sort_dir and search (contract §6).
import { beforeAll, describe, expect, it } from "vitest";
import { api, createAccount, expectError, expectStatus, postmaster } from "./client";

const D = "list.example.com";
const admin = postmaster(D);
const keys = async (query: string, resource = "emails") => {
  const res = await api("GET", `${resource}/${D}?${query}`, { auth: admin });
  expectStatus(res, 200);
  return { names: Object.keys(res.json.result_data as object), info: res.json.result_info };
};

beforeAll(async () => {
  await createAccount(D, "anna", { description: "Księgowość", capacity: 40 });
  await createAccount(D, "bartek", { description: "Sprzedaż", capacity: 30 });
  await createAccount(D, "celina", { description: "", capacity: 20 });
  await createAccount(D, "dawid", { description: "Dział IT", capacity: 10 });
  for (const [name, target] of [
    ["kontakt", `anna@${D}`],
    ["faktury", "biuro@zewnetrzna.example.org"],
  ]) {
    expectStatus(await api("POST", `aliases/${D}/${name}`, { auth: admin, body: { target } }), 201);
  }
  for (const [name, description] of [
    ["zarzad", "Zarząd spółki"],
    ["wszyscy", "Wszyscy pracownicy"],
  ]) {
    expectStatus(await api("POST", `mailinglists/${D}/${name}`, { auth: admin, body: { description } }), 201);
  }
});

describe("sorting and paging", () => {
  it("sorts by name ascending by default", async () => {
    expect((await keys("")).names).toEqual(["anna", "bartek", "celina", "dawid", "postmaster"]);
  });

  it("sorts by a summary field in either direction", async () => {
    expect((await keys("sort=capacity&sort_dir=desc")).names).toEqual([
      "postmaster",
      "anna",
      "bartek",
      "celina",
      "dawid",
    ]);
    expect((await keys("sort=capacity")).names).toEqual(["dawid", "celina", "bartek", "anna", "postmaster"]);
    expect((await keys("sort=target", "aliases")).names).toEqual(["kontakt", "faktury"]);
    expect((await keys("sort=description&sort_dir=desc", "mailinglists")).names).toEqual(["zarzad", "wszyscy"]);
  });

  it("sorts by email in the addresses' own order, which is not the names' when a name extends another", async () => {
    // "jan1@…" < "jan-k@…" < "jan.k@…" < "jan@…": "1", "-", "." and "/" come before "@" (code point order, as every
    // text sort), so the address order differs from the name order (jan, jan-k, jan.k, jan1).
    const D3 = "email-order.example.com";
    const pm = postmaster(D3);
    for (const name of ["jan", "jan1", "jan-k", "jan.k"]) await createAccount(D3, name);
    for (const name of ["ola", "ola1", "ola.k"])
      expectStatus(await api("POST", `aliases/${D3}/${name}`, { auth: pm, body: { target: `jan@${D3}` } }), 201);
    for (const name of ["zespol", "zespol/it", "zespol1"])
      expectStatus(await api("POST", `mailinglists/${D3}/${encodeURIComponent(name)}`, { auth: pm, body: {} }), 201);
    const emails = async (resource: string, query: string) => {
      const res = await api("GET", `${resource}/${D3}?${query}`, { auth: pm });
      expectStatus(res, 200);
      return Object.values(res.json.result_data as Record<string, { email: string }>).map((i) => i.email);
    };
    const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const resource of ["emails", "aliases", "mailinglists"]) {
      const asc = await emails(resource, "sort=email");
      expect(asc, resource).toEqual(sorted(asc));
      expect(await emails(resource, "sort=email&sort_dir=desc"), resource).toEqual(sorted(asc).reverse());
      // Paged: the same order across pages.
      const paged = [
        ...(await emails(resource, "sort=email&size=2")),
        ...(await emails(resource, "sort=email&size=2&page=1")),
      ];
      expect(paged, resource).toEqual(sorted(asc).slice(0, 4));
    }
    expect(await emails("emails", "sort=email")).toEqual([
      `jan-k@${D3}`,
      `jan.k@${D3}`,
      `jan1@${D3}`,
      `jan@${D3}`,
      `postmaster@${D3}`,
    ]);
  });

  it("writes result_data in the requested order, all-digit names included", async () => {
    const D2 = "digits.example.com";
    for (const name of ["99", "100", "a1"]) await createAccount(D2, name);
    const textOrder = async (query: string) => {
      const res = await api("GET", `emails/${D2}?${query}`, { auth: postmaster(D2) });
      expectStatus(res, 200);
      return [...res.text.matchAll(/"([^"]+)":\{"email"/g)].map((m) => m[1]);
    };
    expect(await textOrder("")).toEqual(["100", "99", "a1", "postmaster"]);
    expect(await textOrder("sort_dir=desc")).toEqual(["postmaster", "a1", "99", "100"]);
  });

  it("pages from 0 with size rows; total counts every match", async () => {
    expect(await keys("size=2")).toEqual({
      names: ["anna", "bartek"],
      info: { total: 5, fetched: 2, page_size: 2, page: 0 },
    });
    expect(await keys("size=2&page=2")).toEqual({
      names: ["postmaster"],
      info: { total: 5, fetched: 1, page_size: 2, page: 2 },
    });
    expect(await keys("size=2&page=3")).toEqual({ names: [], info: { total: 5, fetched: 0, page_size: 2, page: 3 } });
  });
});

describe("search", () => {
  it("matches the name or the description, case-insensitively (also Polish letters)", async () => {
    expect((await keys(`search=${encodeURIComponent("KSIĘG")}`)).names).toEqual(["anna"]);
    expect((await keys(`search=${encodeURIComponent("sprzedaż")}`)).names).toEqual(["bartek"]);
    expect((await keys("search=DAW")).names).toEqual(["dawid"]);
    expect((await keys("search=a&size=1")).info.total).toBe(5);
  });

  it("finds accented letters typed composed or decomposed (a Mac's keyboard), stored composed", async () => {
    const nfd = "Łączność, żółw".normalize("NFD");
    await createAccount(D, "ewa", { description: nfd, capacity: 5 });
    const record = await api("GET", `emails/${D}/ewa`, { auth: admin });
    expect(record.json.description).toBe("Łączność, żółw".normalize("NFC"));
    for (const term of ["ŻÓŁW".normalize("NFD"), "żółw", "łączn".normalize("NFD")])
      expect((await keys(`search=${encodeURIComponent(term)}`)).names, term).toEqual(["ewa"]);
    expectStatus(await api("DELETE", `emails/${D}/ewa`, { auth: admin }), 204);
  });

  it("refuses a search holding a control character (500.130 search) instead of listing every row", async () => {
    // Stripped, "%00" became an empty search: every row. Surrounding whitespace is still trimmed.
    for (const resource of ["emails", "aliases", "mailinglists"])
      for (const search of ["%00", "%01", "%1F", "%7F", "an%00na", "%20%00%20"])
        expectError(await api("GET", `${resource}/${D}?search=${search}`, { auth: admin }), "invalidQuery", "search");
    expect((await keys("search=%20%09anna%0A")).names).toEqual(["anna"]);
  });

  it("treats % and _ literally", async () => {
    expect((await keys("search=%25")).names).toEqual([]);
    expect((await keys("search=_")).names).toEqual([]);
  });

  it("keeps an encoded Polish letter when a stray % elsewhere in the URL is no escape", async () => {
    // The server escapes what would not decode (a lone %, the byte %ff) and nothing else: "ksi%C4%99g" stays "księg".
    for (const stray of ["%", "%ff", "%C4"])
      expect((await keys(`search=ksi%C4%99g&other=${stray}`)).names, stray).toEqual(["anna"]);
    expect((await keys("search=%ff")).names).toEqual([]);
  });

  it("an address is a substring first: an alias's target finds it; else the names the address ends in", async () => {
    // Contract §6: aliases by name or target. "anna@…" is kontakt's target.
    expect((await keys(`search=${encodeURIComponent(`anna@${D}`)}`, "aliases")).names).toEqual(["kontakt"]);
    // No target or name holds the alias's own address: the alias whose name it ends in (also while being typed).
    for (const typed of [`kontakt@${D}`, "kontakt@", "kontakt@list.ex"])
      expect((await keys(`search=${encodeURIComponent(typed)}`, "aliases")).names, typed).toEqual(["kontakt"]);
    expect((await keys(`search=${encodeURIComponent(`anna@${D}`)}`)).names).toEqual(["anna"]);
    expect((await keys(`search=${encodeURIComponent(`nikt@${D}`)}`)).info.total).toBe(0);
  });

  it("matches aliases by name or target, lists by name or description", async () => {
    expect((await keys("search=zewnetrzna", "aliases")).names).toEqual(["faktury"]);
    expect((await keys("search=KONT", "aliases")).names).toEqual(["kontakt"]);
    expect((await keys(`search=${encodeURIComponent("spółki")}`, "mailinglists")).names).toEqual(["zarzad"]);
  });
});
