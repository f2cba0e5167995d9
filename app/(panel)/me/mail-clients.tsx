"use client";
// How to set up a mail program for the signed-in account: the operator's IMAP, POP3 and SMTP settings (from the
// server's configuration), the note that Thunderbird and Outlook find them alone, and the Apple profile download.
import { Card } from "@/components";
import { useT, type Messages } from "@/lib/i18n";

export interface ClientHosts {
  imap: { host: string; port: number; tls: "ssl" | "starttls" };
  pop3?: { host: string; port: number; tls: "ssl" | "starttls" };
  submission: { host: string; port: number; tls: "ssl" | "starttls" };
}

const messages: Messages<
  "title" | "desc" | "imap" | "pop3" | "smtp" | "user" | "ssl" | "starttls" | "apple" | "appleHint"
> = {
  pl: {
    title: "Programy pocztowe",
    desc: "Thunderbird i Outlook same znajdą te ustawienia po podaniu adresu i hasła. Gdy program o nie pyta:",
    imap: "Poczta przychodząca (IMAP)",
    pop3: "Poczta przychodząca (POP3)",
    smtp: "Poczta wychodząca (SMTP)",
    user: "Nazwa użytkownika: pełny adres {email}",
    ssl: "SSL/TLS",
    starttls: "STARTTLS",
    apple: "Pobierz profil dla iPhone'a, iPada i Maca",
    appleHint: "Profil nie zawiera hasła: urządzenie zapyta o nie przy instalacji.",
  },
  en: {
    title: "Mail programs",
    desc: "Thunderbird and Outlook find these settings by themselves from the address and password. When a program asks:",
    imap: "Incoming mail (IMAP)",
    pop3: "Incoming mail (POP3)",
    smtp: "Outgoing mail (SMTP)",
    user: "User name: the full address {email}",
    ssl: "SSL/TLS",
    starttls: "STARTTLS",
    apple: "Download the profile for iPhone, iPad and Mac",
    appleHint: "The profile holds no password: the device asks for it when installing.",
  },
};

export function MailClients({ hosts, email }: { hosts: ClientHosts; email: string }) {
  const t = useT(messages);
  const rows = [
    ["imap", hosts.imap],
    ...(hosts.pop3 ? [["pop3", hosts.pop3] as const] : []),
    ["smtp", hosts.submission],
  ] as const;
  return (
    <Card title={t("title")} description={t("desc")}>
      <dl className="grid gap-3 text-sm sm:grid-cols-3">
        {rows.map(([key, s]) => (
          <div key={key}>
            <dt className="font-semibold">{t(key)}</dt>
            <dd className="wrap-anywhere font-mono">
              {s.host}:{s.port}
            </dd>
            <dd>{t(s.tls)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 wrap-anywhere text-sm">{t("user", { email })}</p>
      <p className="mt-4 text-sm">
        <a
          href="/api/panel/mail/mobileconfig"
          download
          className="font-medium text-blue-800 underline underline-offset-2"
        >
          {t("apple")}
        </a>
        <span className="block text-gray-700">{t("appleHint")}</span>
      </p>
    </Card>
  );
}
