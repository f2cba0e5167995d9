// The domain administrator's pages (domain, accounts, aliases, lists): an ordinary account that opens one is
// redirected to /me, on the server, before any of the page is sent. The BFF refuses their data anyway (the
// service's own 403.2); this keeps such an account from seeing an empty postmaster page. Each page checks too: Next
// does not render a layout again for a request whose router state says the browser has it (an RSC request can say so).
import type { ReactNode } from "react";
import { requirePostmaster } from "@/lib/server/http/page-session";

export default async function PostmasterLayout({ children }: { children: ReactNode }) {
  await requirePostmaster();
  return children;
}
