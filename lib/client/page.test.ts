// The panel shows a list page's rows in the order the service wrote them, all-digit names included.
import { describe, expect, it } from "vitest";
import { objectKeysAt, parseResultPage } from "./page";

describe("parseResultPage", () => {
  it("keeps the text's order of result_data, where JSON.parse would put all-digit keys first", () => {
    const text =
      '{"result_info":{"total":4,"fetched":4,"page_size":50,"page":0},"result_data":{' +
      '"zz":{"name":"zz","description":"a \\"}{\\" b, c"},"10":{"name":"10","x":[1,{"y":"2"}]},' +
      '"anna":{"name":"anna"},"9":{"name":"9"}}}';
    expect(Object.keys((JSON.parse(text) as { result_data: object }).result_data)).toEqual(["9", "10", "zz", "anna"]);
    const page = parseResultPage<{ name: string }>(text);
    expect(page.rows.map((r) => r.name)).toEqual(["zz", "10", "anna", "9"]);
    expect(page.info.total).toBe(4);
  });

  it("reads keys with escapes and ignores same-named members deeper down", () => {
    const text = '{"a":{"result_data":{"no":1}},"result_data":{"\\u0041b":{},"c\\\\":{}},"z":[]}';
    expect(objectKeysAt(text, "result_data")).toEqual(["Ab", "c\\"]);
  });

  it("answers an empty page with no rows", () => {
    const page = parseResultPage('{"result_info":{"total":0,"fetched":0,"page_size":25,"page":3},"result_data":{}}');
    expect(page.rows).toEqual([]);
  });
});
