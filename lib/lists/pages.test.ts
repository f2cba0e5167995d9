// The list service's moderation page (/moderate/<token>, the link in the moderator's mail) shows the held post's
// sender and subject as the panel does: on one line (oneLine) and inside <bdi>, escaped.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { oneLine } from "@/lib/schemas/list-moderation";
import { startListPages, type PagesOptions } from "./pages";
import type { ListRow } from "./store";

// Node resolves the externalized "server-only" package without the react-server condition: it would throw here.
vi.mock("server-only", () => ({}));

const RLO = "\u202e";
const SUBJECT = `Faktura\r\n\tnr 7 ${RLO}fdp.exe<b>\u0085koniec`;

const unused = () => Promise.reject(new Error("not used by these tests"));
let pages: { port: number; close(): Promise<void> };

beforeAll(async () => {
  const options: PagesOptions = {
    host: "127.0.0.1",
    port: 0,
    store: {} as PagesOptions["store"],
    peek: unused,
    confirm: unused,
    unsubscribeTarget: unused,
    oneClick: unused,
    moderate: unused,
    requestConfirmation: unused,
    moderation: (token) =>
      Promise.resolve(
        token === "held"
          ? { post: { sender: `jan@example.com`, subject: SUBJECT }, list: { email: "lista@example.com" } as ListRow }
          : undefined,
      ),
  };
  pages = await startListPages(options);
});
afterAll(() => pages.close());

describe("oneLine", () => {
  it("turns each run of control characters and line separators into one space and trims", () => {
    expect(oneLine(SUBJECT)).toBe(`Faktura nr 7 ${RLO}fdp.exe<b> koniec`);
    expect(oneLine("\n a\u2028\u2029b \u0000")).toBe("a b");
    expect(oneLine("Zażółć gęślą jaźń")).toBe("Zażółć gęślą jaźń");
  });
});

describe("the moderation page", () => {
  it("shows the subject on one line, escaped, inside <bdi>", async () => {
    const res = await fetch(`http://127.0.0.1:${pages.port}/moderate/held?action=approve`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      `nadawca <strong><bdi>jan@example.com</bdi></strong>, temat <strong><bdi>Faktura nr 7 ${RLO}fdp.exe&#60;b&#62; koniec</bdi></strong>.`,
    );
    expect(html).not.toMatch(/Faktura[\r\n\t]/);
    // A subject without spaces (a long address or link) wraps instead of running past a phone's screen.
    expect(html).toContain("bdi{overflow-wrap:anywhere}");
  });
});
