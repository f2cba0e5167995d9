// What a message to an SRS address must look like at the end of DATA (looksLikeReport, docs/mail-server.md, SRS):
// a report, an automatic reply, or a mailer daemon's bounce. Real mail: delivery.test.ts, "SRS".
import { describe, expect, it, vi } from "vitest";
import { looksLikeReport } from "./spam-policy";

vi.mock("server-only", () => ({}));

describe("looksLikeReport", () => {
  it("takes reports of any type, automatic replies and a mailer daemon's bounce of any type", () => {
    expect(looksLikeReport({ content_type: 'multipart/report; report-type=delivery-status; boundary="x"' })).toBe(true);
    expect(looksLikeReport({ content_type: "Multipart/Report;report-type=disposition-notification" })).toBe(true);
    expect(looksLikeReport({ auto_submitted: "auto-replied" })).toBe(true);
    expect(looksLikeReport({ auto_submitted: "auto-generated (vacation)" })).toBe(true);
    expect(looksLikeReport({ from: "MAILER-DAEMON@mx.far.test" })).toBe(true);
    expect(looksLikeReport({ from: "postmaster@far.test", content_type: "text/plain; charset=us-ascii" })).toBe(true);
    expect(looksLikeReport({ from: "mailer-daemon@far.test", content_type: "multipart/mixed; boundary=x" })).toBe(true);
  });

  it("refuses mail from a person and Auto-Submitted: no", () => {
    expect(looksLikeReport({ from: "alerts@bigbank.test", content_type: "text/html" })).toBe(false);
    expect(looksLikeReport({ from: "alerts@bigbank.test" })).toBe(false);
    expect(looksLikeReport({ auto_submitted: "no", from: "alerts@bigbank.test" })).toBe(false);
    expect(looksLikeReport({ auto_submitted: " No ; x", from: "a@b.test" })).toBe(false);
    expect(looksLikeReport({ content_type: "multipart/reports" })).toBe(false);
  });
});
