// Moments as the panel shows them (lib/i18n/date-time.ts).
import { describe, expect, it } from "vitest";
import { momentText, utcOffsetLabel } from "./date-time";

describe("moments", () => {
  const at = Date.UTC(2026, 10, 25, 23, 31, 7); // 25 Nov 2026, 23:31:07 UTC

  it("are the wall clock of the offset, with the offset named, in the panel's date format", () => {
    expect(momentText(at, "pl", 0)).toBe("25.11.2026 23:31:07 UTC");
    expect(momentText(at, "en", 0)).toBe("2026-11-25 23:31:07 UTC");
    // East of UTC the date moves on past midnight; west of it, back.
    expect(momentText(at, "pl", 60)).toBe("26.11.2026 00:31:07 UTC+1");
    expect(momentText(at, "en", 330)).toBe("2026-11-26 05:01:07 UTC+5:30");
    expect(momentText(at, "pl", -300)).toBe("25.11.2026 18:31:07 UTC-5");
    expect(momentText("2026-07-01T08:05:59.000Z", "pl", 120, false)).toBe("01.07.2026 10:05 UTC+2");
  });

  it("name the offset in hours, and minutes only when there are some", () => {
    expect(utcOffsetLabel(0)).toBe("UTC");
    expect(utcOffsetLabel(120)).toBe("UTC+2");
    expect(utcOffsetLabel(-570)).toBe("UTC-9:30");
    expect(utcOffsetLabel(345)).toBe("UTC+5:45");
  });

  it("leave what is not a moment as it is", () => {
    expect(momentText("not a date", "pl", 60)).toBe("not a date");
  });
});
