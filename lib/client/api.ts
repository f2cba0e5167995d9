// The panel's one way to reach the service: /api/panel/v1/<the v1 path>, answered by the backend-for-frontend
// with the v1 API's own bodies and errors, authorized by the server-side session cookie.
import type { ErrorBody } from "@/lib/errors/api-error";

export class PanelApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
    this.name = "PanelApiError";
  }
}

export async function panelFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const text = await panelFetchText(path, init);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

/** The answer's body as text ("" for 204) from any panel URL, or a PanelApiError for an error answer. */
export async function panelRequestText(url: string, init: { method?: string; body?: unknown } = {}): Promise<string> {
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  if (res.status === 204) return "";
  const text = await res.text().catch(() => "");
  if (!res.ok) {
    let body: ErrorBody | null = null;
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      // not JSON: described by the status below
    }
    throw new PanelApiError(
      res.status,
      body ?? { code: String(res.status), message: res.statusText, category: "internal" },
    );
  }
  return text;
}

/** The answer's body as text ("" for 204) of a v1 path through the panel, or a PanelApiError. */
export const panelFetchText = (path: string, init: { method?: string; body?: unknown } = {}) =>
  panelRequestText(`/api/panel/v1/${path.replace(/^\//, "")}`, init);

/** react-query retry rule: never retry a 4xx or a validation answer, retry other failures twice. */
export const retryRule = (failureCount: number, error: unknown) =>
  !(error instanceof PanelApiError && (error.status < 500 || error.body.category === "validation")) && failureCount < 2;
