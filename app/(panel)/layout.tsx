// The signed-in shell: every page under (panel) needs a live session (checked here, on the server, and again by each
// page, which Next renders even when a request's router state skips this layout; the BFF checks it again on every
// data request).
import type { ReactNode } from "react";
import { requireSession } from "@/lib/server/http/page-session";
import { PanelShell } from "./panel-shell";

export default async function PanelLayout({ children }: { children: ReactNode }) {
  const session = await requireSession();
  return (
    <PanelShell session={{ email: session.email, domain: session.domain, isPostmaster: session.isPostmaster }}>
      {children}
    </PanelShell>
  );
}
