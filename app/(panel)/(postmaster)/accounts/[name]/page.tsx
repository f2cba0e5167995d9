// /accounts/<name>: every writable field of one account, for the domain administrator.
import { requirePostmaster } from "@/lib/server/http/page-session";
import { AccountEditor } from "./account-editor";

export default async function AccountPage({ params }: { params: Promise<{ name: string }> }) {
  await requirePostmaster();
  const { name } = await params;
  return <AccountEditor name={decodeURIComponent(name)} />;
}
