// Outlook's spelling of the autodiscover path, served by the same handlers. A route of its own rather than a
// rewrite: Next tests every rewrite on each request that is not a static route (every /api/v1 path), and the one
// rewrite this took cost the API's dynamic routes about 4% of their throughput. The route group keeps this folder
// apart from app/autodiscover on case-insensitive file systems.
export { GET, POST } from "../../../autodiscover/autodiscover.xml/route";
