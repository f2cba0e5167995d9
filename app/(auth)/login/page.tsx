// /login: the sign-in form. A live session goes straight to its landing page.
import { pageMetadata } from "@/lib/i18n/server";
import { redirect } from "next/navigation";
import { currentSession, landingPage } from "@/lib/server/http/page-session";
import { safeNextPath } from "@/lib/security-headers";
import { LoginForm, type LoginNotice } from "./login-form";

export const generateMetadata = () => pageMetadata("login");

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(params.next);
  const session = await currentSession();
  if (session) redirect(next ?? landingPage(session));
  const reason = params.reason;
  const notice: LoginNotice | null = reason === "expired" || reason === "logout" ? reason : null;
  return (
    <main className="flex min-h-screen items-start justify-center px-4 py-12 sm:items-center">
      <LoginForm notice={notice} next={next} />
    </main>
  );
}
