// SMS text, numbers and operators: the pure rules behind lib/mailserver/delivery.test.ts's end-to-end cases.
import { describe, expect, it, vi } from "vitest";
import { normalizeNumber, operatorFor, smsConfig } from "./config";
import { flattenSmsText, smsParts } from "./text";

vi.mock("server-only", () => ({}));

describe("SMS text", () => {
  it("flattens Polish and typographic characters to plain ASCII", () => {
    expect(flattenSmsText("Zażółć  gęślą\njaźń – „cytat” … €5")).toBe('Zazolc gesla jazn - "cytat" ... EUR5');
    expect(flattenSmsText("ŁÓDŹ 😀 ok")).toBe("LODZ ok");
  });

  it("sms_cnt 0 is the subject only; 1 one SMS of subject and body; 2 and 3 up to that many parts within the limit", () => {
    const body = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
    expect(smsParts("Temat", body, 0, 160)).toEqual(["Temat"]);
    const one = smsParts("Temat", body, 1, 160);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatch(/^Temat: w0 w1/);
    for (const cnt of [2, 3]) {
      const parts = smsParts("Temat", body, cnt, 160);
      expect(parts).toHaveLength(cnt);
      for (const p of parts) expect(p.length).toBeLessThanOrEqual(160);
    }
    expect(smsParts("Krótki", "tekst", 3, 160)).toEqual(["Krotki: tekst"]);
    expect(smsParts("", "", 0, 160)).toEqual(["(bez tematu)"]);
  });
});

describe("numbers and operators", () => {
  const config = smsConfig();
  it("normalises Polish numbers and keeps foreign ones whole", () => {
    expect(normalizeNumber(config, "+48601234567")).toEqual({ national: "601234567", msisdn: "48601234567" });
    expect(normalizeNumber(config, "601234567")).toEqual({ national: "601234567", msisdn: "48601234567" });
    expect(normalizeNumber(config, "0049151234567")).toEqual({ national: "49151234567", msisdn: "49151234567" });
    expect(normalizeNumber(config, "jan@example.org")).toBeUndefined();
  });

  it("operator 0 is detected from the prefix; an explicit code wins; every code of the specification exists", () => {
    expect(operatorFor(config, 0, "601234567")?.code).toBe("11");
    expect(operatorFor(config, 0, "602234567")?.code).toBe("21");
    expect(operatorFor(config, 0, "501234567")?.code).toBe("31");
    expect(operatorFor(config, 0, "791234567")?.code).toBe("51");
    expect(operatorFor(config, 0, "999234567")).toBeUndefined();
    expect(operatorFor(config, 21, "601234567")?.code).toBe("21");
    expect(Object.keys(config.operators).sort()).toEqual(["11", "12", "13", "21", "22", "23", "31", "32", "33", "51"]);
  });

  it("the provider's file overrides an operator's fields and keeps the rest", () => {
    const c = smsConfig({ operators: { "11": { email: "{msisdn}@sms.example" } }, rateLimitPerHour: 3 });
    expect(c.operators["11"]).toMatchObject({ name: "Plus", email: "{msisdn}@sms.example", maxLength: 160 });
    expect(c.operators["11"]!.prefixes).toContain("601");
    expect(c.rateLimitPerHour).toBe(3);
    expect(() => smsConfig({ operators: { "99": { name: "x" } } })).toThrow();
  });
});
