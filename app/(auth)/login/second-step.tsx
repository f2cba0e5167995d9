"use client";
// The sign-in's second step (lib/server/caller/totp.ts): the code from the phone's app or a recovery code; or, when the
// operator requires two-step sign-in and the account has none yet, its set-up first (QR code, the first code, the
// recovery codes shown once), then on to the panel.
import { useEffect, useId, useState, type FormEvent } from "react";
import { Alert, Button, TextField, TotpKey } from "@/components";
import { useT, type Messages } from "@/lib/i18n";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import type { ErrorBody } from "@/lib/errors/api-error";

export type SecondStepKind = "code" | "setup";

const messages: Messages<
  | "code"
  | "codeHint"
  | "submit"
  | "setupIntro"
  | "manual"
  | "codesTitle"
  | "codesNote"
  | "continue"
  | "restart"
  | "account"
  | "wrong"
  | "expired"
  | "server"
  | "locked"
> = {
  pl: {
    code: "Kod logowania dwuetapowego",
    codeHint: "6 cyfr z aplikacji w telefonie albo jeden z kodów zapasowych.",
    submit: "Potwierdź",
    setupIntro:
      "Operator serwera wymaga logowania dwuetapowego dla tego konta. Zeskanuj kod QR aplikacją uwierzytelniającą i wpisz pokazany w niej kod.",
    manual: "Albo wpisz klucz ręcznie:",
    codesTitle: "Kody zapasowe",
    codesNote: "Zapisz je teraz: każdy działa raz, gdy nie masz telefonu. Nie zostaną pokazane ponownie.",
    continue: "Kody są zapisane, przejdź dalej",
    restart: "Zaloguj się od nowa",
    account: "Konto: {account}",
    wrong: "Nieprawidłowy kod. Wpisz 6 cyfr z aplikacji albo jeden z kodów zapasowych.",
    expired: "Czas na podanie kodu minął albo było zbyt wiele prób. Zaloguj się ponownie.",
    server: "Serwer nie mógł obsłużyć logowania. Spróbuj ponownie za chwilę.",
    locked: "Zbyt wiele błędnych kodów dla tego konta. Spróbuj ponownie za {n} s.",
  },
  en: {
    code: "Two-step sign-in code",
    codeHint: "6 digits from the app on your phone, or one of the recovery codes.",
    submit: "Confirm",
    setupIntro:
      "The server's operator requires two-step sign-in for this account. Scan the QR code with an authenticator app and enter the code it shows.",
    manual: "Or type the key by hand:",
    codesTitle: "Recovery codes",
    codesNote: "Save them now: each works once, when you do not have your phone. They will not be shown again.",
    continue: "I saved the codes, continue",
    restart: "Sign in again",
    account: "Account: {account}",
    wrong: "Wrong code. Enter the 6 digits from the app or one of the recovery codes.",
    expired: "The time to enter the code is over, or there were too many tries. Please sign in again.",
    server: "The server could not process the sign-in. Try again in a moment.",
    locked: "Too many wrong codes for this account. Try again in {n} s.",
  },
};

export function SecondStep({
  kind,
  account,
  next,
  onRestart,
}: {
  kind: SecondStepKind;
  /** The address whose password was right: said above the code, with a way back to sign in as another. */
  account: string;
  next: string | null;
  onRestart: () => void;
}) {
  const t = useT(messages);
  const id = useId();
  const [code, setCode] = useState("");
  const [error, setError] = useState<"wrong" | "expired" | "server" | null>(null);
  // A refused code in the server's words: wrong, already used, or the account's code lock with its wait. Kept as the
  // answer and worded at each render, so that it follows the language switch.
  const [refusal, setRefusal] = useState<
    { retryAfter: number } | { answer: Pick<ErrorBody, "code" | "message" | "attributes"> } | null
  >(null);
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [setup, setSetup] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [landing, setLanding] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  useEffect(() => {
    if (kind !== "setup") return;
    void fetch("/api/panel/session/second-step", { method: "PUT", credentials: "same-origin" }).then(async (res) => {
      if (res.ok) setSetup((await res.json()) as { secret: string; qr_svg: string });
      else setError(res.status === 401 ? "expired" : "server");
    });
  }, [kind]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRefusal(null);
    try {
      const res = await fetch("/api/panel/session/second-step", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ code }),
      });
      const body = (await res.json().catch(() => null)) as
        ({ isPostmaster?: boolean; recovery_codes?: string[] } & Partial<ErrorBody>) | null;
      if (res.ok) {
        const to = next ?? (body?.isPostmaster ? "/accounts" : "/me");
        if (body?.recovery_codes) {
          setCodes(body.recovery_codes);
          setLanding(to);
        } else window.location.assign(to);
        return;
      }
      if (res.status === 403 && body?.attributes?.retry_after !== undefined)
        setRefusal({ retryAfter: Number(body.attributes.retry_after) });
      else if (res.status === 403 && body?.code && body.message)
        setRefusal({ answer: { code: body.code, message: body.message, attributes: body.attributes } });
      else setError(res.status === 401 ? "expired" : res.status === 403 ? "wrong" : "server");
      setCode("");
      document.getElementById(id)?.focus();
    } catch {
      setError("server");
    }
    setBusy(false);
  }

  if (codes && landing) {
    return (
      <div className="space-y-3">
        <h2 className="font-semibold">{t("codesTitle")}</h2>
        <p className="text-sm">{t("codesNote")}</p>
        <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label={t("codesTitle")}>
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <Button className="w-full" onClick={() => window.location.assign(landing)}>
          {t("continue")}
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <p className="text-sm break-all">{t("account", { account })}</p>
      {kind === "setup" && <p className="text-sm">{t("setupIntro")}</p>}
      {setup && (
        <TotpKey
          qrSvg={setup.qr_svg}
          secret={setup.secret}
          label={t("setupIntro")}
          manual={t("manual")}
          className="mx-auto"
        />
      )}
      {error && <Alert tone="error">{t(error)}</Alert>}
      {refusal && (
        <Alert tone="error">
          {"retryAfter" in refusal ? t("locked", { n: refusal.retryAfter }) : errorText.body(refusal.answer)}
        </Alert>
      )}
      <TextField
        id={id}
        label={t("code")}
        hint={t("codeHint")}
        autoComplete="one-time-code"
        autoFocus
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoCapitalize="none"
        spellCheck={false}
      />
      <Button type="submit" loading={busy} className="w-full">
        {t("submit")}
      </Button>
      <Button variant="secondary" className="w-full" onClick={onRestart}>
        {t("restart")}
      </Button>
    </form>
  );
}
