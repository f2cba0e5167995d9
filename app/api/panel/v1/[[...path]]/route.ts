// Any other path under /api/panel/v1: "sign in again" without a session, as for every panel call to the service;
// with one, the JSON 404.4 of an unknown /api/v1 path.
import { apiError } from "@/lib/errors/api-error";
import { withApi } from "@/lib/server/http/http";

const notFound = withApi(() => {
  throw apiError("endpointNotFound");
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as DELETE, notFound as PATCH };
