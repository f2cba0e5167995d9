// /domain: the postmaster's domain settings (catchall, anti-spam) and its limits.
import { pageMetadata } from "@/lib/i18n/server";
import { requirePostmaster } from "@/lib/server/http/page-session";
import { DomainSettings } from "./domain-settings";

export const generateMetadata = () => pageMetadata("domain");

export default async function DomainPage() {
  await requirePostmaster();
  return <DomainSettings />;
}
