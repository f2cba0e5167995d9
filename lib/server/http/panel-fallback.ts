import "server-only";
// The panel's endpoints answer every request with JSON, as the API does: an undefined path or method gets the API's own
// 404.4 or 405.1 body through the one wrapper (same-origin check first), never Next's HTML page or empty 405.
import { apiError } from "@/lib/errors/api-error";
import { withPublicApi } from "./http";

export const panelNotFound = withPublicApi(() => {
  throw apiError("endpointNotFound");
});

export const panelMethodNotAllowed = withPublicApi(() => {
  throw apiError("methodNotAllowed");
});
