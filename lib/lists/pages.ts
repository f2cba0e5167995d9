import "server-only";
// The list service's web pages (PUBLIC_URL): a confirmation link and a moderator's link open a page with one
// button, and only its POST acts, so a link scanner's GET changes nothing. The list's page (List-Help,
// List-Unsubscribe) sends the same confirmation mail as SUBSCRIBE/UNSUBSCRIBE by mail.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { errorCatalog } from "@/lib/errors/catalog";
import { isEmail } from "@/lib/schemas/common";
import { oneLine } from "@/lib/schemas/list-moderation";
import { clientAddress } from "@/lib/server/http/client-address";
import { ipv6Groups } from "@/lib/server/http/ip-address";
import type { ListRow, ListStore, RequestRefusal } from "./store";
import type { Confirmed } from "./subscriptions";

export interface PagesOptions {
  host: string;
  port: number;
  store: ListStore;
  peek(token: string): Promise<{ list: ListRow; action: string; address: string } | undefined>;
  confirm(token: string): Promise<Confirmed | undefined>;
  /** The list and address of a one-click link (RFC 8058), when its signature is good. */
  unsubscribeTarget(token: string): Promise<{ list: ListRow; address: string } | undefined>;
  /** Unsubscribes at once (the link's POST). */
  oneClick(token: string): Promise<{ list: ListRow; address: string } | undefined>;
  moderation(token: string): Promise<{ post: { sender: string; subject: string }; list: ListRow } | undefined>;
  moderate(token: string, action: "approve" | "reject"): Promise<boolean>;
  /** Sends the request mail unless the list takes no subscriptions ("closed") or a limit refuses it. */
  requestConfirmation(
    list: ListRow,
    action: "subscribe" | "unsubscribe",
    address: string,
    client: string,
  ): Promise<"sent" | "closed" | RequestRefusal>;
}

/**
 * Whom the hourly budget of confirmation requests counts: an IPv4 address, or the /64 of an IPv6 one. A host is
 * usually given a whole /64, so counting each IPv6 address let one client send a request from a new address each
 * time, without limit.
 */
export function requestBudgetClient(address: string): string {
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="pl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#111}button{font:inherit;padding:.5rem 1.25rem;border-radius:.375rem;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box;margin:.25rem 0 .75rem}bdi{overflow-wrap:anywhere}</style>
</head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

const ACTIONS: Record<string, string> = {
  subscribe: "Potwierdź zapis",
  unsubscribe: "Potwierdź wypisanie",
  approve: "Zatwierdź wiadomość",
  reject: "Odrzuć wiadomość",
};

/** A form's fields as text, from a urlencoded or multipart/form-data body (RFC 8058 allows both); at most 64 KB. */
interface Form {
  get(name: string): string | null;
}
async function readForm(req: http.IncomingMessage): Promise<Form> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 65536) break;
    chunks.push(chunk);
  }
  const type = req.headers["content-type"] || "application/x-www-form-urlencoded";
  let data: FormData;
  try {
    // undici's form parser (Node's fetch): the same for both encodings, no MIME parsing of our own.
    data = await new Response(Buffer.concat(chunks), { headers: { "content-type": type } }).formData();
  } catch {
    data = new FormData();
  }
  return {
    get(name) {
      const v = data.get(name);
      return typeof v === "string" ? v : null;
    },
  };
}

export async function startListPages(o: PagesOptions): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const send = (status: number, title: string, body: string) => {
      res.writeHead(status, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-store",
        "Content-Security-Policy":
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
      });
      res.end(page(title, body));
    };
    const gone = () => send(410, "Link nieważny", "<p>Ten link wygasł albo został już użyty.</p>");
    const closed = (list: ListRow) =>
      send(
        403,
        "Zapis niedostępny",
        `<p>Lista <strong>${esc(list.email)}</strong>.</p><p>Na tę listę nie można zapisać się samodzielnie.</p>`,
      );
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      let parts: string[];
      try {
        parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      } catch {
        // A malformed escape (%ZZ) names no page and no token.
        return send(404, "Nie znaleziono", "<p>Nie ma takiej strony.</p>");
      }
      const post = req.method === "POST";
      const form: Form = post ? await readForm(req) : { get: () => null };

      // /confirm/<token>, or POST /confirm with token=... (a page of the list's own confirm_url posting here)
      if (parts[0] === "confirm" && parts.length <= 2) {
        const token = parts[1] ?? form.get("token") ?? url.searchParams.get("token") ?? "";
        if (post) {
          const done = await o.confirm(token);
          if (!done) return gone();
          if (done.closed) return closed(done.list);
          const what = done.action === "subscribe" ? "zapisany na listę" : "wypisany z listy";
          return send(200, "Gotowe", `<p>Adres ${esc(done.address)} został ${what} ${esc(done.list.email)}.</p>`);
        }
        const t = await o.peek(token);
        if (!t) return gone();
        const what = t.action === "subscribe" ? "zapisanie adresu" : "wypisanie adresu";
        return send(
          200,
          ACTIONS[t.action]!,
          `<p>Potwierdź ${what} <strong>${esc(t.address)}</strong> ${t.action === "subscribe" ? "na listę" : "z listy"} <strong>${esc(t.list.email)}</strong>.</p>
<form method="post"><input type="hidden" name="token" value="${esc(token)}"><button type="submit">${ACTIONS[t.action]}</button></form>`,
        );
      }

      // /unsubscribe/<token>: each copy's own List-Unsubscribe link (RFC 8058). A POST of List-Unsubscribe=One-Click
      // (the mail program's one click, or the button below) unsubscribes at once; a GET only shows the button.
      if (parts[0] === "unsubscribe" && parts.length === 2) {
        const token = parts[1]!;
        const target = await o.unsubscribeTarget(token);
        if (!target) return gone();
        if (post) {
          if (form.get("List-Unsubscribe") !== "One-Click") {
            return send(
              400,
              "Błędne żądanie",
              "<p>Wypisanie jednym kliknięciem wymaga pola List-Unsubscribe=One-Click.</p>",
            );
          }
          const done = await o.oneClick(token);
          if (!done) return gone();
          return send(
            200,
            "Gotowe",
            `<p>Adres ${esc(done.address)} został wypisany z listy ${esc(done.list.email)}.</p>`,
          );
        }
        return send(
          200,
          ACTIONS.unsubscribe!,
          `<p>Potwierdź wypisanie adresu <strong>${esc(target.address)}</strong> z listy <strong>${esc(target.list.email)}</strong>.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${ACTIONS.unsubscribe}</button></form>`,
        );
      }

      // /moderate/<token>?action=approve|reject
      if (parts[0] === "moderate" && parts.length === 2) {
        const token = parts[1]!;
        const action = (post ? form.get("action") : url.searchParams.get("action")) === "reject" ? "reject" : "approve";
        if (post) {
          if (!(await o.moderate(token, action))) return gone();
          return send(
            200,
            "Gotowe",
            `<p>${action === "approve" ? "Wiadomość zatwierdzona: zostanie rozesłana." : "Wiadomość odrzucona."}</p>`,
          );
        }
        const m = await o.moderation(token);
        if (!m) return gone();
        // The sender and subject are the poster's text: on one line and isolated, as the panel shows them, so that
        // a right-to-left override cannot turn the sentence around them.
        return send(
          200,
          ACTIONS[action]!,
          `<p>Lista <strong>${esc(m.list.email)}</strong>, nadawca <strong><bdi>${esc(oneLine(m.post.sender))}</bdi></strong>, temat <strong><bdi>${esc(oneLine(m.post.subject))}</bdi></strong>.</p>
<form method="post"><input type="hidden" name="action" value="${action}"><button type="submit">${ACTIONS[action]}</button></form>`,
        );
      }

      // /lists/<address>: the list's page (List-Help, List-Unsubscribe)
      if (parts[0] === "lists" && parts.length === 2) {
        const list = await o.store.listByEmail(parts[1]!.toLowerCase());
        if (!list) return send(404, "Nie ma takiej listy", "<p>Nie ma takiej listy.</p>");
        if (post) {
          const address = (form.get("address") ?? "").trim().toLowerCase();
          const action = form.get("action") === "subscribe" ? "subscribe" : "unsubscribe";
          if (!isEmail(address)) return send(400, "Błędny adres", "<p>Podaj poprawny adres e-mail.</p>");
          const forwarded = req.headers["x-forwarded-for"];
          const client = requestBudgetClient(
            clientAddress(req.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(",") : forwarded),
          );
          const done = await o.requestConfirmation(list, action, address, client);
          if (done === "closed") return closed(list);
          if (done !== "sent") {
            const e = errorCatalog[done === "pending" ? "listRequestPending" : "listRequestBudget"];
            return send(e.status, "Nie wysłano", `<p data-code="${e.code}">${esc(e.message)}</p>`);
          }
          return send(
            200,
            "Sprawdź pocztę",
            `<p>Wysłaliśmy na adres ${esc(address)} wiadomość z linkiem potwierdzającym.</p>`,
          );
        }
        const buttons =
          (list.autosubscribeEnabled ? `<button type="submit" name="action" value="subscribe">Zapisz</button> ` : "") +
          `<button type="submit" name="action" value="unsubscribe">Wypisz</button>`;
        return send(
          200,
          list.description || list.email,
          `<p>Lista dyskusyjna <strong>${esc(list.email)}</strong>. Wiadomości do uczestników wysyłaj na ten adres.</p>
<form method="post"><label for="address">Twój adres e-mail</label><input id="address" name="address" type="email" required>${buttons}</form>
<p>Zapis i wypisanie działają też pocztą: wiadomość z tematem SUBSCRIBE lub UNSUBSCRIBE na adres listy.</p>`,
        );
      }
      send(404, "Nie znaleziono", "<p>Nie ma takiej strony.</p>");
    })().catch((err: Error) => {
      if (!res.headersSent) send(500, "Błąd", "<p>Spróbuj ponownie za chwilę.</p>");
      console.error(`list pages: ${err.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
