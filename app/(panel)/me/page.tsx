// /me: the signed-in account's own settings (autoresponder, forwarding, password, anti-spam lists), and how to set
// up a mail program for it.
import { pageMetadata } from "@/lib/i18n/server";
import { requireSession } from "@/lib/server/http/page-session";
import { mailHosts } from "@/lib/server/resources/dns-records";
import { MailClients } from "./mail-clients";
import { MyAccount } from "./my-account";

export const generateMetadata = () => pageMetadata("me");

export default async function MePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requireSession();
  const denied = (await searchParams).denied === "1";
  const { imap, pop3, submission } = mailHosts();
  return (
    <div className="space-y-6">
      <MyAccount domain={session.domain} name={session.name} denied={denied} />
      <MailClients hosts={{ imap, pop3, submission }} email={`${session.name}@${session.domain}`} />
    </div>
  );
}
