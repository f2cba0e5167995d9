// Any other path under /api/v1: the specified JSON 404.4 instead of Next's HTML page.
import { apiError } from "@/lib/errors/api-error";
import { withPublicApi } from "@/lib/server/http/http";

const notFound = withPublicApi(() => {
  throw apiError("endpointNotFound");
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as DELETE, notFound as PATCH };
