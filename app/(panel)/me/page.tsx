// /me: the signed-in account's own settings (autoresponder, forwarding, password, anti-spam lists).
import type { Metadata } from "next";
import { requireSession } from "@/lib/server/page-session";
import { MyAccount } from "./my-account";

export const metadata: Metadata = { title: "Moje konto" };

export default async function MePage() {
  const session = await requireSession();
  return <MyAccount domain={session.domain} name={session.name} />;
}
