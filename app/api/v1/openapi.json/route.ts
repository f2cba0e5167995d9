// GET /api/v1/openapi.json: the OpenAPI 3.1 document, built once from the zod schemas.
import { openApiDocument } from "@/lib/openapi";
import { methodsNotAllowed, ok, withPublicApi } from "@/lib/server/http/http";

const document = openApiDocument();

export const GET = withPublicApi(() => ok(document));
export const { POST, PUT, DELETE, PATCH } = methodsNotAllowed("GET");
