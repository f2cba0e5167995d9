// /domain: the postmaster's domain settings (catchall, anti-spam) and its limits.
import { requirePostmaster } from "@/lib/server/http/page-session";
import { DomainSettings } from "./domain-settings";

export default async function DomainPage() {
  await requirePostmaster();
  return <DomainSettings />;
}
