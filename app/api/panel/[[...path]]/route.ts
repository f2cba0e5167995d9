// Any other path under /api/panel: the JSON 404.4, as under /api/v1, instead of Next's HTML page.
import { panelNotFound } from "@/lib/server/http/panel-fallback";

export {
  panelNotFound as GET,
  panelNotFound as POST,
  panelNotFound as PUT,
  panelNotFound as DELETE,
  panelNotFound as PATCH,
};
