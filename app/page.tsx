// /: straight to the right place: the login page, the postmaster's account table, or the account's own settings.
import { redirect } from "next/navigation";
import { currentSession, landingPage } from "@/lib/server/http/page-session";

export default async function Home() {
  const session = await currentSession();
  redirect(session ? landingPage(session) : "/login");
}
