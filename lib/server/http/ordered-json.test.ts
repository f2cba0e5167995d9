import { describe, expect, it } from "vitest";
import { orderedRecord, toJson } from "./ordered-json";

describe("toJson", () => {
  it("writes a list's rows in their own order, all-digit names too", () => {
    const body = {
      result_info: { total: 3 },
      result_data: orderedRecord([
        ["b", 1],
        ["10", 2],
        ["9", { x: '"' }],
      ]),
    };
    expect(toJson(body)).toBe('{"result_info":{"total":3},"result_data":{"b":1,"10":2,"9":{"x":"\\""}}}');
    expect(Object.keys(JSON.parse(toJson(body)) as object)).toEqual(["result_info", "result_data"]);
  });

  it("is JSON.stringify for everything else", () => {
    for (const value of [null, 1, "x", [1, { a: 2 }], { result_data: { 2: 1, 1: 2 } }]) {
      expect(toJson(value)).toBe(JSON.stringify(value));
    }
  });

  it("keeps __proto__ as a plain key", () => {
    expect(toJson({ result_data: orderedRecord([["__proto__", 1]]) })).toBe('{"result_data":{"__proto__":1}}');
  });
});
