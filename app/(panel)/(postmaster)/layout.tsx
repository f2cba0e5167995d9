// The domain administrator's pages (domain, accounts, aliases, lists): an ordinary account that opens one is
// redirected to /me here, on the server, before any of the page is sent. The BFF refuses their data anyway (the
// service's own 403.2); this keeps such an account from seeing an empty postmaster page.
import type { ReactNode } from "react";
import { requirePostmaster } from "@/lib/server/http/page-session";

export default async function PostmasterLayout({ children }: { children: ReactNode }) {
  await requirePostmaster();
  return children;
}
