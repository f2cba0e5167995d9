"use client";
// The -1/0/1 switches of RBL, SPF and greylisting, with what "default" currently means spelled out. Their labels and
// hints live here, for the domain's page and the account editor alike: a short label keeps the three selects of a
// row level (a long one wrapped and pushed its select down), the hint under each says what it refuses.
import type { FieldValues, Path, UseFormRegister, UseFormRegisterReturn } from "react-hook-form";
import { Select } from "@/components";
import { useT, type Messages } from "@/lib/i18n";
import { SPAM_SWITCHES } from "@/lib/schemas/spam";

type SpamSwitch = (typeof SPAM_SWITCHES)[number];

const messages: Messages<"default" | "on" | "off" | "nowOn" | "nowOff" | "global" | SpamSwitch | `${SpamSwitch}Hint`> =
  {
    pl: {
      default: "Domyślnie ({value})",
      on: "Włączony",
      off: "Wyłączony",
      nowOn: "teraz włączony",
      nowOff: "teraz wyłączony",
      global: "według ustawienia serwera",
      rbl: "RBL",
      rblHint: "Odrzuca pocztę z serwerów wpisanych na czarne listy (DNSBL).",
      spf: "SPF",
      spfHint: "Odrzuca pocztę z serwera, którego domena nadawcy nie dopuszcza (twardy błąd SPF).",
      greylist: "Greylisting",
      greylistHint: "Pierwszą próbę nieznanego nadawcy odsyła na później; prawdziwe serwery ponawiają wysyłkę.",
    },
    en: {
      default: "Default ({value})",
      on: "On",
      off: "Off",
      nowOn: "currently on",
      nowOff: "currently off",
      global: "as the server decides",
      rbl: "RBL",
      rblHint: "Refuses mail from servers on the blocklists (DNSBL).",
      spf: "SPF",
      spfHint: "Refuses mail from a server the sender's domain does not allow (SPF hard fail).",
      greylist: "Greylisting",
      greylistHint: "Defers an unknown sender's first attempt; real mail servers try again.",
    },
  };

export function TriStateSelect({
  label,
  hint,
  defaultValue,
  error,
  registration,
}: {
  label: string;
  hint?: string;
  /** The record's spam_*_default: 1 or 0, or -1 when the server's global setting applies. */
  defaultValue: unknown;
  error?: string;
  registration: UseFormRegisterReturn;
}) {
  const t = useT(messages);
  const d = Number(defaultValue);
  const meaning = d === 1 ? t("nowOn") : d === 0 ? t("nowOff") : t("global");
  return (
    <Select
      label={label}
      hint={hint}
      error={error}
      options={[
        { value: "-1", label: t("default", { value: meaning }) },
        { value: "1", label: t("on") },
        { value: "0", label: t("off") },
      ]}
      {...registration}
    />
  );
}

/** The RBL, SPF and greylisting switches of a record (a domain's or an account's), each with its current default. */
export function SpamSwitches<V extends FieldValues>({
  record,
  err,
  register,
}: {
  record: Record<`spam_${SpamSwitch}_default`, unknown>;
  err: (field: string) => string | undefined;
  register: UseFormRegister<V>;
}) {
  const t = useT(messages);
  return SPAM_SWITCHES.map((m) => (
    <TriStateSelect
      key={m}
      label={t(m)}
      hint={t(`${m}Hint`)}
      defaultValue={record[`spam_${m}_default`]}
      error={err(`spam_${m}_enabled`)}
      registration={register(`spam_${m}_enabled` as Path<V>)}
    />
  ));
}
