// The link a subscription request carries to a list's own confirmation page (confirm_url).
import { describe, expect, it, vi } from "vitest";
import { withToken } from "./subscriptions";

vi.mock("server-only", () => ({}));

describe("a list's confirm_url with the request's token", () => {
  it("adds the token to the query, before a fragment, where the page's server sees it", () => {
    expect(withToken("https://a.example/potwierdz", "t-1")).toBe("https://a.example/potwierdz?token=t-1");
    expect(withToken("https://a.example/p?lista=1", "t-1")).toBe("https://a.example/p?lista=1&token=t-1");
    expect(withToken("https://a.example/p#form", "t-1")).toBe("https://a.example/p?token=t-1#form");
    expect(withToken("https://a.example/p?x=1#a?b", "t/1")).toBe("https://a.example/p?x=1&token=t%2F1#a?b");
  });
});
