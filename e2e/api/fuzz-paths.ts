// Path generators the fuzz tests share: odd path segments, and the v1 API's record and collection paths over a given
// domain and names.
import fc from "fast-check";

/** `emails|aliases|mailinglists/<domain>/<names>`: one record or several. */
export const recordPath = (domain: fc.Arbitrary<string>, name: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom("emails", "aliases", "mailinglists"), domain, name).map((xs) => xs.join("/"));

/** `emails|aliases|mailinglists|domains/<domain>`: a collection or the domain. */
export const collectionPath = (domain: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom("emails", "aliases", "mailinglists", "domains"), domain).map((xs) => xs.join("/"));

/** Odd path segments (empty, broken and encoded escapes, non-ASCII, commas, markup, case, length), plus `more`. */
export const weirdSegment = (...more: string[]) =>
  fc.constantFrom(
    "",
    "%",
    "%zz",
    "%00",
    "%2F",
    "%2C",
    "ü",
    "%C3%BC",
    "a%20b",
    ",",
    ",,",
    "<script>",
    "Ab",
    "x".repeat(300),
    ...more,
  );
