"use client";
// The -1/0/1 switches of RBL, SPF and greylisting, with what "default" currently means spelled out.
import type { FieldValues, Path, UseFormRegister, UseFormRegisterReturn } from "react-hook-form";
import { Select } from "@/components";
import { useT, type Messages } from "@/lib/i18n";
import { SPAM_SWITCHES } from "@/lib/schemas/spam";

const messages: Messages<"default" | "on" | "off" | "nowOn" | "nowOff" | "global"> = {
  pl: {
    default: "Domyślnie ({value})",
    on: "Włączony",
    off: "Wyłączony",
    nowOn: "teraz włączony",
    nowOff: "teraz wyłączony",
    global: "według ustawienia serwera",
  },
  en: {
    default: "Default ({value})",
    on: "On",
    off: "Off",
    nowOn: "currently on",
    nowOff: "currently off",
    global: "as the server decides",
  },
};

export function TriStateSelect({
  label,
  defaultValue,
  error,
  registration,
}: {
  label: string;
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

type SpamSwitch = (typeof SPAM_SWITCHES)[number];

/** The RBL, SPF and greylisting switches of a record (a domain's or an account's), each with its current default. */
export function SpamSwitches<V extends FieldValues>({
  label,
  record,
  err,
  register,
}: {
  label: (field: `spam_${SpamSwitch}_enabled`) => string;
  record: Record<`spam_${SpamSwitch}_default`, unknown>;
  err: (field: string) => string | undefined;
  register: UseFormRegister<V>;
}) {
  return SPAM_SWITCHES.map((m) => (
    <TriStateSelect
      key={m}
      label={label(`spam_${m}_enabled`)}
      defaultValue={record[`spam_${m}_default`]}
      error={err(`spam_${m}_enabled`)}
      registration={register(`spam_${m}_enabled` as Path<V>)}
    />
  ));
}
