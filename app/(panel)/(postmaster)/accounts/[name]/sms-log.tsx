"use client";
// The account's last SMS notifications, so the postmaster sees what went out and why one failed.
import { Alert } from "@/components";
import { useSmsNotifications, type SmsNotification } from "@/lib/client/hooks/mail-status";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT, type Messages } from "@/lib/i18n";

type Key =
  | "title"
  | "none"
  | "failed"
  | "when"
  | "number"
  | "to"
  | "status"
  | "error"
  | "pending"
  | "sent"
  | "skipped"
  | "failedStatus"
  | "attempts";
const messages: Messages<Key> = {
  pl: {
    title: "Ostatnie powiadomienia",
    none: "Jeszcze nie wysłano żadnego powiadomienia.",
    failed: "Nie udało się wczytać powiadomień: {error}",
    when: "Kiedy",
    number: "Numer",
    to: "Dokąd",
    status: "Stan",
    error: "Ostatni błąd",
    pending: "czeka ({attempts} prób)",
    sent: "wysłane",
    skipped: "pominięte",
    failedStatus: "nieudane ({attempts} prób)",
    attempts: "{attempts}",
  },
  en: {
    title: "Latest notifications",
    none: "No notification has been sent yet.",
    failed: "Could not load the notifications: {error}",
    when: "When",
    number: "Number",
    to: "To",
    status: "Status",
    error: "Last error",
    pending: "waiting ({attempts} attempts)",
    sent: "sent",
    skipped: "skipped",
    failedStatus: "failed ({attempts} attempts)",
    attempts: "{attempts}",
  },
};

function statusText(t: ReturnType<typeof useT<Key>>, n: SmsNotification) {
  if (n.status === "sent") return t("sent");
  if (n.status === "skipped") return t("skipped");
  if (n.status === "failed") return t("failedStatus", { attempts: n.attempts });
  return t("pending", { attempts: n.attempts });
}

export function SmsLog({ domain, name }: { domain: string; name: string }) {
  const t = useT(messages);
  const errorText = useErrorText();
  const log = useSmsNotifications(domain, name);
  if (log.isError) return <Alert tone="error">{t("failed", { error: errorText.failure(log.error) })}</Alert>;
  if (!log.data) return null;
  return (
    <div className="mt-4">
      <h3 className="mb-2 text-sm font-semibold">{t("title")}</h3>
      {log.data.length === 0 ? (
        <p className="text-sm text-gray-700">{t("none")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="sms-log">
            <thead>
              <tr>
                <th className="pr-3">{t("when")}</th>
                <th className="pr-3">{t("number")}</th>
                <th className="pr-3">{t("to")}</th>
                <th className="pr-3">{t("status")}</th>
                <th>{t("error")}</th>
              </tr>
            </thead>
            <tbody>
              {log.data.map((n, i) => (
                <tr key={i} className={n.status === "failed" || n.last_error ? "text-red-900" : undefined}>
                  <td className="pr-3 whitespace-nowrap">{n.created_at.slice(0, 16).replace("T", " ")}</td>
                  <td className="pr-3">{n.number}</td>
                  <td className="pr-3 wrap-anywhere">{n.target}</td>
                  <td className="pr-3">{statusText(t, n)}</td>
                  <td className="wrap-anywhere">{n.last_error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
