// /accounts/<name>: every writable field of one account, for the domain administrator.
import { AccountEditor } from "./account-editor";

export default async function AccountPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <AccountEditor name={decodeURIComponent(name)} />;
}
