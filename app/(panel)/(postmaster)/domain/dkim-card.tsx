"use client";
// The domain's DKIM record to publish, and whether DNS already holds it; the way to the domain's DNS page.
import Link from "next/link";
import { Alert, Card, SkeletonLines } from "@/components";
import { useDkimStatus } from "@/lib/client/hooks/mail-status";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { useT, type Messages } from "@/lib/i18n";

const messages: Messages<
  | "title"
  | "desc"
  | "name"
  | "value"
  | "loading"
  | "failed"
  | "published"
  | "different"
  | "missing"
  | "error"
  | "allRecords"
> = {
  pl: {
    title: "Podpis DKIM",
    desc: "Poczta wysyłana z domeny jest podpisywana kluczem DKIM. Opublikuj w DNS domeny poniższy rekord TXT.",
    name: "Nazwa rekordu TXT",
    value: "Wartość",
    loading: "Sprawdzanie rekordu DKIM…",
    failed: "Nie udało się wczytać rekordu DKIM: {error}",
    published: "DNS zawiera ten rekord: podpisy są weryfikowalne.",
    different: "DNS zawiera inny rekord pod tą nazwą ({detail}): zastąp go powyższym.",
    missing: "DNS nie zawiera jeszcze tego rekordu: odbiorcy nie zweryfikują podpisu.",
    error: "Nie udało się zapytać DNS ({detail}).",
    allRecords: "Wszystkie rekordy DNS domeny (MX, SPF, DKIM, DMARC, autokonfiguracja)",
  },
  en: {
    title: "DKIM signature",
    desc: "Mail sent from the domain is signed with a DKIM key. Publish the TXT record below in the domain's DNS.",
    name: "TXT record name",
    value: "Value",
    loading: "Checking the DKIM record…",
    failed: "Could not load the DKIM record: {error}",
    published: "DNS holds this record: signatures can be verified.",
    different: "DNS holds another record under this name ({detail}): replace it with the one above.",
    missing: "DNS does not hold this record yet: recipients cannot verify the signature.",
    error: "Could not ask DNS ({detail}).",
    allRecords: "All DNS records of the domain (MX, SPF, DKIM, DMARC, autoconfiguration)",
  },
};

export function DkimCard({ domain }: { domain: string }) {
  const t = useT(messages);
  const errorText = useErrorText();
  const status = useDkimStatus(domain);
  return (
    <Card title={t("title")} description={t("desc")}>
      {status.isError && <Alert tone="error">{t("failed", { error: errorText.failure(status.error) })}</Alert>}
      {status.data ? (
        <div className="space-y-3">
          <dl className="space-y-2 text-sm">
            {(["name", "value"] as const).map((key) => (
              <div key={key}>
                <dt className="font-semibold">{t(key)}</dt>
                <dd className="wrap-anywhere font-mono" data-testid={`dkim-${key}`}>
                  {status.data[key]}
                </dd>
              </div>
            ))}
          </dl>
          <Alert tone={status.data.dns === "published" ? "success" : "warning"}>
            {t(status.data.dns, { detail: status.data.dns_detail })}
          </Alert>
        </div>
      ) : (
        !status.isError && <SkeletonLines lines={3} label={t("loading")} />
      )}
      <p className="mt-4 text-sm">
        <Link href="/domain/dns" className="font-medium text-blue-800 underline underline-offset-2">
          {t("allRecords")}
        </Link>
      </p>
    </Card>
  );
}
