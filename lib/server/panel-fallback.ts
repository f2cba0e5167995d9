import "server-only";
// The panel's endpoints answer every request with JSON (issue 20): an undefined path or method gets the API's own
// 404.4 or 405.1 body through the panel wrapper (same-origin check first), never Next's HTML page or empty 405.
import { apiError } from "@/lib/errors/api-error";
import { withPanel } from "./panel-http";

export const panelNotFound = withPanel(() => {
  throw apiError("endpointNotFound");
}, false);

export const panelMethodNotAllowed = withPanel(() => {
  throw apiError("methodNotAllowed");
}, false);
