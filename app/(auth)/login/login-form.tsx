"use client";
// Address + password. The browser posts the password's SHA-1 hex digest (Web Crypto), which the server checks as the
// API checks it, and the password as typed, which the server reads only at the first sign-in of an account imported
// from another mail server (its API hash is made from it then: docs/migration.md) and never stores or logs.
import { useState, type FormEvent } from "react";
import { Alert, Button, TextField } from "@/components";
import { LanguageSwitch } from "@/components/language-switch";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useT, type Messages } from "@/lib/i18n";
import { SecondStep, type SecondStepKind } from "./second-step";

export type LoginNotice = "expired" | "logout";

type Key =
  | "title"
  | "email"
  | "password"
  | "submit"
  | "submitting"
  | "expired"
  | "logout"
  | "wrong"
  | "blocked"
  | "expiredAccount"
  | "locked"
  | "lockedNoTime"
  | "network"
  | "server"
  | "missing";

const messages: Messages<Key> = {
  pl: {
    title: "Logowanie do panelu poczty",
    email: "Adres e-mail",
    password: "Hasło",
    submit: "Zaloguj",
    submitting: "Logowanie…",
    expired: "Sesja wygasła. Zaloguj się ponownie.",
    logout: "Wylogowano.",
    wrong: "Nieprawidłowy adres lub hasło. Sprawdź je i spróbuj ponownie.",
    blocked: "To konto jest zablokowane. Skontaktuj się z administratorem domeny.",
    expiredAccount: "Ważność tego konta wygasła. Skontaktuj się z administratorem domeny.",
    locked: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za {n} s.",
    lockedNoTime: "Zbyt wiele nieudanych prób logowania. Spróbuj ponownie później.",
    network: "Brak połączenia z serwerem. Sprawdź połączenie i spróbuj ponownie.",
    server: "Serwer nie mógł obsłużyć logowania. Spróbuj ponownie za chwilę.",
    missing: "Podaj adres e-mail i hasło.",
  },
  en: {
    title: "Sign in to the mail panel",
    email: "Email address",
    password: "Password",
    submit: "Sign in",
    submitting: "Signing in…",
    expired: "Your session has expired. Please sign in again.",
    logout: "You have been signed out.",
    wrong: "Wrong address or password. Check them and try again.",
    blocked: "This account is blocked. Contact your domain administrator.",
    expiredAccount: "This account has expired. Contact your domain administrator.",
    locked: "Too many failed sign-in attempts. Try again in {n} s.",
    lockedNoTime: "Too many failed sign-in attempts. Try again later.",
    network: "Cannot reach the server. Check your connection and try again.",
    server: "The server could not process the sign-in. Try again in a moment.",
    missing: "Enter your email address and password.",
  },
};

/** An attempt's error as its message key (and the seconds to wait), worded at each render: the language switch
 * re-renders the form, and text kept as rendered stayed in the language of the moment it was refused. */
type LoginError = {
  key: Exclude<Key, "title" | "email" | "password" | "submit" | "submitting" | LoginNotice>;
  n?: number;
};

async function sha1Hex(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(text));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

interface ErrorAnswer {
  code?: string;
  message?: string;
  attributes?: { reason?: string; retry_after?: number };
}

/** `next`: the page the sign-in was asked for (already checked to be a path of this site by the server). */
export function LoginForm({ notice, next = null }: { notice: LoginNotice | null; next?: string | null }) {
  const t = useT(messages);
  const [error, setError] = useState<LoginError | null>(null);
  const [busy, setBusy] = useState(false);
  // The notice ("session expired", "signed out") says why the form is shown; the first attempt answers it. It then
  // stays gone: clearing an attempt's error (by editing a field, or by the next attempt) must not bring it back.
  const [noticeDismissed, setNoticeDismissed] = useState(false);
  /** The password was right and the account has two-step sign-in: the code comes next (./second-step.tsx). */
  const [second, setSecond] = useState<{ kind: SecondStepKind; account: string } | null>(null);
  const hydrated = useHydrated();

  function explain(status: number, body: ErrorAnswer | null): LoginError {
    if (status === 403 && body?.attributes?.retry_after !== undefined)
      return { key: "locked", n: body.attributes.retry_after };
    if (status === 403 && body?.attributes?.reason === "blocked") return { key: "blocked" };
    if (status === 403 && body?.attributes?.reason === "expired") return { key: "expiredAccount" };
    if (status === 403) return { key: "wrong" };
    return { key: "server" };
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === "string" ? value : "";
    };
    const email = field("email").trim().toLowerCase();
    const password = field("password");
    setNoticeDismissed(true);
    if (!email || !password) return setError({ key: "missing" });
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/panel/session", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ email, digest: await sha1Hex(password), password }),
      });
      const body = (await res.json().catch(() => null)) as
        (ErrorAnswer & { isPostmaster?: boolean; second_step?: SecondStepKind }) | null;
      if (res.ok && body?.second_step) {
        setSecond({ kind: body.second_step, account: email });
        setBusy(false);
        return;
      }
      if (res.ok) {
        window.location.assign(next ?? (body?.isPostmaster ? "/accounts" : "/me"));
        return;
      }
      setError(explain(res.status, body));
    } catch {
      setError({ key: "network" });
    }
    setBusy(false);
  }

  return (
    <div className="w-full max-w-sm">
      <div className="mb-4 flex justify-end">
        <LanguageSwitch />
      </div>
      <div className="rounded-lg border border-gray-300 bg-white p-6 shadow-sm">
        <h1 className="mb-4 text-xl font-semibold text-gray-900">{t("title")}</h1>
        {notice && !noticeDismissed && !error && (
          <Alert tone={notice === "expired" ? "warning" : "info"} className="mb-4">
            {t(notice)}
          </Alert>
        )}
        {error && (
          <Alert tone="error" className="mb-4">
            {error.n === undefined ? t(error.key) : t(error.key, { n: error.n })}
          </Alert>
        )}
        {second ? (
          <SecondStep kind={second.kind} account={second.account} next={next} onRestart={() => setSecond(null)} />
        ) : (
          <form
            method="post"
            onSubmit={(e) => void submit(e)}
            // The last attempt's error is about what was typed then: it goes once the address or password changes.
            onChange={() => error && setError(null)}
            noValidate
            className="space-y-4"
          >
            <TextField
              label={t("email")}
              name="email"
              type="email"
              autoComplete="username"
              required
              autoCapitalize="none"
              spellCheck={false}
            />
            <TextField label={t("password")} name="password" type="password" autoComplete="current-password" required />
            <Button type="submit" loading={busy} disabled={!hydrated} className="w-full">
              {busy ? t("submitting") : t("submit")}
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
