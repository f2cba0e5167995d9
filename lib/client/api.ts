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
  const res = await fetch(`/api/panel/v1/${path.replace(/^\//, "")}`, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const body = (data ?? { code: String(res.status), message: res.statusText, category: "internal" }) as ErrorBody;
    throw new PanelApiError(res.status, body);
  }
  return data as T;
}

/** react-query retry rule: never retry a 4xx or a validation answer, retry other failures twice. */
export const retryRule = (failureCount: number, error: unknown) =>
  !(error instanceof PanelApiError && (error.status < 500 || error.body.category === "validation")) && failureCount < 2;
