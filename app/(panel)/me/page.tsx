// /me: the signed-in account's own settings (autoresponder, forwarding, password, anti-spam lists).
import type { Metadata } from "next";
import { requireSession } from "@/lib/server/http/page-session";
import { MyAccount } from "./my-account";

export const metadata: Metadata = { title: "Moje konto" };

export default async function MePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession();
  const denied = (await searchParams).denied === "1";
  return <MyAccount domain={session.domain} name={session.name} denied={denied} />;
}
