"use client";
// "Logowanie dwuetapowe": any account turns TOTP on for its panel sign-in (scan the QR code, confirm with the app's
// first code, keep the ten recovery codes shown once) or off again with a code; both ask for the current password.
// The server: /api/panel/two-factor.
import { useEffect, useId, useState, type FormEvent } from "react";
import { Alert, Button, Card, TextField, TotpKey } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import type { ErrorBody } from "@/lib/errors/api-error";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT, type Messages } from "@/lib/i18n";

const messages: Messages<
  | "title"
  | "desc"
  | "on"
  | "off"
  | "required"
  | "left"
  | "start"
  | "scan"
  | "manual"
  | "code"
  | "codeHint"
  | "codeEmpty"
  | "confirm"
  | "codesTitle"
  | "codesNote"
  | "done"
  | "disable"
  | "disableHint"
  | "disabled"
  | "enabled"
  | "loading"
  | "cancel"
  | "password"
  | "passwordHint"
  | "passwordEmpty"
  | "notConfigured"
> = {
  pl: {
    title: "Logowanie dwuetapowe",
    desc: "Po haśle panel zapyta o 6-cyfrowy kod z aplikacji w telefonie (np. Aegis, FreeOTP, Google Authenticator). Dotyczy tylko logowania do panelu.",
    on: "Włączone.",
    off: "Wyłączone.",
    required: "Operator serwera wymaga go dla tego konta.",
    left: "Niewykorzystane kody zapasowe: {n}.",
    start: "Włącz logowanie dwuetapowe",
    scan: "Zeskanuj kod QR aplikacją uwierzytelniającą.",
    manual: "Albo wpisz ten klucz ręcznie:",
    code: "Kod z aplikacji",
    codeHint: "6 cyfr (albo kod zapasowy).",
    codeEmpty: "Wpisz kod z aplikacji (albo kod zapasowy).",
    confirm: "Potwierdź i włącz",
    codesTitle: "Kody zapasowe",
    codesNote:
      "Zapisz je teraz w bezpiecznym miejscu: każdy działa raz, gdy nie masz telefonu. Nie zostaną pokazane ponownie.",
    done: "Kody są zapisane",
    disable: "Wyłącz logowanie dwuetapowe",
    disableHint: "Podaj bieżący kod z aplikacji albo kod zapasowy.",
    disabled: "Logowanie dwuetapowe wyłączone.",
    enabled: "Logowanie dwuetapowe włączone.",
    loading: "Wczytywanie…",
    cancel: "Anuluj",
    password: "Obecne hasło",
    passwordHint: "Włączenie i wyłączenie wymaga hasła; pozostałe sesje tego konta zostaną zakończone.",
    passwordEmpty: "Wpisz obecne hasło.",
    notConfigured: "Niedostępne na tym serwerze: operator nie ustawił klucza szyfrowania kodów (TOTP_ENCRYPTION_KEY).",
  },
  en: {
    title: "Two-step sign-in",
    desc: "After the password, the panel asks for a 6-digit code from an app on your phone (e.g. Aegis, FreeOTP, Google Authenticator). It applies to the panel's sign-in only.",
    on: "On.",
    off: "Off.",
    required: "The server's operator requires it for this account.",
    left: "Unused recovery codes: {n}.",
    start: "Turn on two-step sign-in",
    scan: "Scan the QR code with an authenticator app.",
    manual: "Or type this key by hand:",
    code: "Code from the app",
    codeHint: "6 digits (or a recovery code).",
    codeEmpty: "Enter the code from the app (or a recovery code).",
    confirm: "Confirm and turn on",
    codesTitle: "Recovery codes",
    codesNote:
      "Save them now somewhere safe: each works once, when you do not have your phone. They will not be shown again.",
    done: "I saved the codes",
    disable: "Turn off two-step sign-in",
    disableHint: "Enter the current code from the app or a recovery code.",
    disabled: "Two-step sign-in turned off.",
    enabled: "Two-step sign-in turned on.",
    loading: "Loading…",
    cancel: "Cancel",
    password: "Current password",
    passwordHint: "Turning it on or off needs the password; the account's other sessions are ended.",
    passwordEmpty: "Enter the current password.",
    notConfigured:
      "Not available on this server: the operator has not set the key that encrypts the codes (TOTP_ENCRYPTION_KEY).",
  },
};

interface State {
  enabled: boolean;
  required: boolean;
  recovery_left: number;
  configured: boolean;
}

async function call<T>(method: string, body?: unknown): Promise<T> {
  const res = await fetch("/api/panel/two-factor", {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) throw new PanelApiError(res.status, json as ErrorBody);
  return json as T;
}

export function TwoFactorSection() {
  const t = useT(messages);
  const errorText = useErrorText();
  const codeId = useId();
  const passwordId = useId();
  const [password, setPassword] = useState("");
  const [state, setState] = useState<State | null>(null);
  const [setup, setSetup] = useState<{ secret: string; qr_svg: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState("");
  const [passwordError, setPasswordError] = useState("");
  const [notice, setNotice] = useState("");
  const [busy, setBusy] = useState(false);

  const load = () => call<State>("GET").then(setState, (e: unknown) => setError(errorText.failure(e)));
  useEffect(() => {
    void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount
  }, []);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError("");
    setNotice("");
    try {
      await fn();
    } catch (e) {
      setError(errorText.failure(e));
      document.getElementById(codeId)?.focus();
    } finally {
      setBusy(false);
    }
  };

  // An empty code is said so here: the server would call it a wrong code.
  const codeMissing = () => {
    if (code.trim() !== "") return false;
    setNotice("");
    setError(setup ? t("codeEmpty").replace(/ \(.*\)/, "") : t("codeEmpty"));
    document.getElementById(codeId)?.focus();
    return true;
  };

  // An empty password is said so at its field: the server would call it a wrong password.
  const passwordMissing = () => {
    if (password !== "") return false;
    setNotice("");
    setError("");
    setPasswordError(t("passwordEmpty"));
    document.getElementById(passwordId)?.focus();
    return true;
  };

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (passwordMissing()) return;
    void run(async () => {
      setSetup(await call<{ secret: string; qr_svg: string }>("POST", { current_password: password }));
      setPassword("");
    });
  };
  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (codeMissing()) return;
    void run(async () => {
      const { recovery_codes } = await call<{ recovery_codes: string[] }>("PUT", { code });
      setCodes(recovery_codes);
      setSetup(null);
      setCode("");
      setNotice(t("enabled"));
      await load();
    });
  };
  const turnOff = (e: FormEvent) => {
    e.preventDefault();
    if (passwordMissing() || codeMissing()) return;
    void run(async () => {
      await call("DELETE", { current_password: password, code });
      setCode("");
      setPassword("");
      setNotice(t("disabled"));
      await load();
    });
  };

  const codeField = (
    <TextField
      id={codeId}
      label={t("code")}
      hint={setup ? t("codeHint").replace(/ \(.*\)/, "") : t("codeHint")}
      inputMode={setup ? "numeric" : "text"}
      autoComplete="one-time-code"
      value={code}
      error={error || undefined}
      onChange={(e) => setCode(e.target.value)}
    />
  );

  const passwordField = (
    <TextField
      id={passwordId}
      type="password"
      label={t("password")}
      hint={t("passwordHint")}
      autoComplete="current-password"
      value={password}
      error={passwordError || undefined}
      onChange={(e) => {
        setPassword(e.target.value);
        setPasswordError("");
      }}
    />
  );

  return (
    <Card title={t("title")} description={t("desc")}>
      <div className="space-y-4" data-testid="two-factor">
        {!state && !error && <p className="text-sm">{t("loading")}</p>}
        {state && (
          <p className="text-sm">
            <strong>{state.enabled ? t("on") : t("off")}</strong> {state.required && t("required")}{" "}
            {state.enabled && t("left", { n: state.recovery_left })}
          </p>
        )}
        {notice && <Alert tone="success">{notice}</Alert>}
        {codes && (
          <div className="space-y-2 rounded border border-amber-300 bg-amber-50 p-3">
            <h3 className="font-semibold">{t("codesTitle")}</h3>
            <p className="text-sm">{t("codesNote")}</p>
            <ul className="grid grid-cols-2 gap-1 font-mono text-sm sm:grid-cols-5" aria-label={t("codesTitle")}>
              {codes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <Button variant="secondary" onClick={() => setCodes(null)}>
              {t("done")}
            </Button>
          </div>
        )}
        {state && !state.enabled && !setup && !state.configured && (
          <p className="text-sm text-gray-800">{t("notConfigured")}</p>
        )}
        {state && !state.enabled && !setup && state.configured && (
          <form onSubmit={start} noValidate className="space-y-3">
            {passwordField}
            <Button type="submit" loading={busy}>
              {t("start")}
            </Button>
          </form>
        )}
        {setup && (
          <form onSubmit={confirm} noValidate className="space-y-3">
            <p className="text-sm">{t("scan")}</p>
            <TotpKey qrSvg={setup.qr_svg} secret={setup.secret} label={t("scan")} manual={t("manual")} />
            {codeField}
            <div className="flex gap-2">
              <Button type="submit" loading={busy}>
                {t("confirm")}
              </Button>
              <Button variant="secondary" onClick={() => setSetup(null)}>
                {t("cancel")}
              </Button>
            </div>
          </form>
        )}
        {state?.enabled && !state.required && (
          <form onSubmit={turnOff} noValidate className="space-y-3">
            <p className="text-sm text-gray-800">{t("disableHint")}</p>
            {passwordField}
            {codeField}
            <Button type="submit" variant="secondary" loading={busy}>
              {t("disable")}
            </Button>
          </form>
        )}
        {error && !setup && !state?.enabled && <Alert tone="error">{error}</Alert>}
      </div>
    </Card>
  );
}
