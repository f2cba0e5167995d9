// Any path under /api that no route matches (/api, /api/foo, /api/v2/..., /api/health/x): the JSON 404.4, never
// Next's HTML 404 page.
import { unknownApiPath } from "@/lib/server/http/http";

export {
  unknownApiPath as GET,
  unknownApiPath as POST,
  unknownApiPath as PUT,
  unknownApiPath as DELETE,
  unknownApiPath as PATCH,
};
