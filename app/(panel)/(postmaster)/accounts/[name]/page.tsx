// /accounts/<name>: every writable field of one account, for the domain administrator.
import { pageMetadata } from "@/lib/i18n/server";
import { currentSession, requirePostmaster } from "@/lib/server/http/page-session";
import { AccountEditor } from "./account-editor";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }) {
  const name = decodeURIComponent((await params).name);
  const domain = (await currentSession())?.domain;
  return pageMetadata("account", { email: domain ? `${name}@${domain}` : name });
}

export default async function AccountPage({ params }: { params: Promise<{ name: string }> }) {
  await requirePostmaster();
  const { name } = await params;
  return <AccountEditor name={decodeURIComponent(name)} />;
}
