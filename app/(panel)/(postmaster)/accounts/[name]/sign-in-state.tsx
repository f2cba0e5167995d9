"use client";
// The account's panel sign-in as its administrator sees it: two-step sign-in on or off, and the locks of wrong
// passwords and wrong codes; "Remove two-step sign-in" for an owner who lost the phone (/api/panel/two-factor/<name>).
import { useEffect, useState } from "react";
import { Alert, Button, ConfirmDialog } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import type { ErrorBody } from "@/lib/errors/api-error";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT, type Messages } from "@/lib/i18n";

const messages: Messages<
  "twoFactor" | "on" | "off" | "passwordLock" | "codeLock" | "remove" | "removeTitle" | "removeDesc" | "removed"
> = {
  pl: {
    twoFactor: "Logowanie dwuetapowe:",
    on: "włączone",
    off: "wyłączone",
    passwordLock: "Logowanie zablokowane po błędnych hasłach jeszcze przez {n} s.",
    codeLock: "Drugi krok zablokowany po błędnych kodach jeszcze przez {n} s.",
    remove: "Usuń logowanie dwuetapowe",
    removeTitle: "Usunąć logowanie dwuetapowe tego konta?",
    removeDesc:
      "Właściciel zaloguje się samym hasłem i może ponownie włączyć drugi krok. Zmiana trafi do dziennika zmian.",
    removed: "Logowanie dwuetapowe usunięte.",
  },
  en: {
    twoFactor: "Two-step sign-in:",
    on: "on",
    off: "off",
    passwordLock: "Sign-in locked after wrong passwords for {n} s more.",
    codeLock: "Second step locked after wrong codes for {n} s more.",
    remove: "Remove two-step sign-in",
    removeTitle: "Remove this account's two-step sign-in?",
    removeDesc:
      "The owner will sign in with the password alone and may turn the second step on again. The change is recorded in the audit log.",
    removed: "Two-step sign-in removed.",
  },
};

interface SignIn {
  two_factor: boolean;
  password_locked_for: number;
  code_locked_for: number;
}

async function call<T>(name: string, method: "GET" | "DELETE"): Promise<T> {
  const res = await fetch(`/api/panel/two-factor/${encodeURIComponent(name)}`, { method, credentials: "same-origin" });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) throw new PanelApiError(res.status, json as ErrorBody);
  return json as T;
}

export function SignInState({ name }: { name: string }) {
  const t = useT(messages);
  const errorText = useErrorText();
  const [state, setState] = useState<SignIn | null>(null);
  const [asking, setAsking] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState("");
  const [notice, setNotice] = useState("");

  useEffect(() => {
    call<SignIn>(name, "GET").then(setState, (e: unknown) => setError(errorText.failure(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per account
  }, [name]);

  const remove = async () => {
    setPending(true);
    setError("");
    try {
      await call(name, "DELETE");
      setState(await call<SignIn>(name, "GET"));
      setNotice(t("removed"));
      setAsking(false);
    } catch (e) {
      setError(errorText.failure(e));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="mt-4 space-y-2 text-sm" data-testid="sign-in-state">
      {state && (
        <>
          <p>
            {t("twoFactor")} <strong>{state.two_factor ? t("on") : t("off")}</strong>
          </p>
          {state.password_locked_for > 0 && (
            <p className="font-medium text-red-800">{t("passwordLock", { n: state.password_locked_for })}</p>
          )}
          {state.code_locked_for > 0 && (
            <p className="font-medium text-red-800">{t("codeLock", { n: state.code_locked_for })}</p>
          )}
          {(state.two_factor || state.code_locked_for > 0) && (
            <Button type="button" variant="secondary" onClick={() => setAsking(true)}>
              {t("remove")}
            </Button>
          )}
        </>
      )}
      {notice && <Alert tone="success">{notice}</Alert>}
      {error && !asking && <Alert tone="error">{error}</Alert>}
      <ConfirmDialog
        open={asking}
        title={t("removeTitle")}
        description={t("removeDesc")}
        confirmLabel={t("remove")}
        danger
        pending={pending}
        error={asking && error ? error : undefined}
        onConfirm={() => void remove()}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}
