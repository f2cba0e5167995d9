// /domain: the postmaster's domain settings (catchall, anti-spam) and its limits.
import { DomainSettings } from "./domain-settings";

export default function DomainPage() {
  return <DomainSettings />;
}
