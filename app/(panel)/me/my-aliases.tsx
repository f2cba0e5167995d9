"use client";
// "My aliases": the addresses of the domain that deliver to this account (the record's `aliases`), which the owner
// may add and remove up to alias_limit (contract §7; the service checks the limit and the names). Each change
// saves the whole set at once, as the API takes it. Removing asks first; then the keyboard focus moves to the next
// alias's Remove button, or to the new-alias field, never back to the top of the page.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Address, Alert, Button, Card, ConfirmDialog, TextField } from "@/components";
import { PanelApiError } from "@/lib/client/api";
import { useErrorText } from "@/lib/client/hooks/use-error-text";
import { errorCatalog } from "@/lib/errors/catalog";
import { useLocale, useT, type Messages } from "@/lib/i18n";
import { counted } from "@/lib/i18n/plural";
import { isAccountName } from "@/lib/schemas/common";
import { useSaveMyAccount, type MyAccountRecord } from "./use-my-account";

const messages: Messages<
  | "title"
  | "desc"
  | "none"
  | "name"
  | "nameHint"
  | "add"
  | "remove"
  | "added"
  | "removed"
  | "invalid"
  | "full"
  | "noneAllowed"
  | "reserved"
  | "taken"
  | "domainFull"
  | "confirmTitle"
  | "confirmText"
  | "confirmRemove"
  | "removeFailed"
> = {
  pl: {
    title: "Moje aliasy",
    desc: "Dodatkowe adresy w domenie {domain}, z których poczta trafia do tej skrzynki. Możesz mieć najwyżej {limit}.",
    none: "To konto nie ma jeszcze aliasów.",
    name: "Nowy alias",
    nameHint: "Sama nazwa przed @{domain}: małe litery, cyfry oraz . - _ (od 2 do 32 znaków).",
    add: "Dodaj alias",
    remove: "Usuń",
    added: "Dodano alias {email}.",
    removed: "Usunięto alias {email}.",
    invalid:
      "Nieprawidłowa nazwa aliasu: małe litery, cyfry oraz . - _ (od 2 do 32 znaków), litera lub cyfra na początku i końcu.",
    full: "Wykorzystano limit aliasów ({limit}). Usuń któryś, aby dodać nowy.",
    noneAllowed: "Administrator domeny nie przydzielił temu kontu aliasów.",
    reserved: "Adres {email} jest zastrzeżony dla administratora domeny: poproś go, jeśli ma trafiać do Ciebie.",
    taken: "Adres {email} jest już zajęty w domenie. Wybierz inną nazwę.",
    domainFull: "W domenie wyczerpano limit aliasów ({limit}). Poproś administratora domeny o większy.",
    confirmTitle: "Usunąć alias?",
    confirmText:
      "Poczta wysłana na {email} przestanie trafiać do tej skrzynki. Alias można później dodać ponownie, jeśli nikt inny nie zajmie tej nazwy.",
    confirmRemove: "Usuń alias",
    removeFailed: "Nie usunięto aliasu: {error}",
  },
  en: {
    title: "My aliases",
    desc: "Extra addresses in {domain} whose mail reaches this mailbox. You may have at most {limit}.",
    none: "This account has no aliases yet.",
    name: "New alias",
    nameHint: "Just the name before @{domain}: lowercase letters, digits and . - _ (2 to 32 characters).",
    add: "Add alias",
    remove: "Remove",
    added: "Alias {email} added.",
    removed: "Alias {email} removed.",
    invalid:
      "Invalid alias name: lowercase letters, digits and . - _ (2 to 32 characters), a letter or digit at both ends.",
    full: "The alias limit ({limit}) is used up. Remove one to add another.",
    noneAllowed: "The domain administrator has not granted this account any aliases.",
    reserved: "The address {email} is reserved for the domain administrator: ask them if it should reach you.",
    taken: "The address {email} is already taken in the domain. Choose another name.",
    domainFull: "The domain's alias limit ({limit}) is used up. Ask the domain administrator for more.",
    confirmTitle: "Remove the alias?",
    confirmText:
      "Mail sent to {email} will no longer reach this mailbox. You can add the alias again later if nobody else takes the name.",
    confirmRemove: "Remove alias",
    removeFailed: "The alias was not removed: {error}",
  },
};

/** focusNext's value for the new-alias field. */
const ADD_FIELD = "";

const aliasCount = (locale: "pl" | "en", n: number) =>
  locale === "pl"
    ? counted(locale, n, { one: "alias", few: "aliasy", many: "aliasów", other: "aliasu" })
    : counted(locale, n, { one: "alias", other: "aliases" });

export function MyAliases({ record }: { record: MyAccountRecord }) {
  const t = useT(messages);
  const locale = useLocale();
  const errorText = useErrorText();
  const save = useSaveMyAccount(record.domain, record.name);
  const inputId = useId();
  const [name, setName] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  /** The alias whose removal waits for the confirmation, and that removal's error (shown in the dialog). */
  const [removing, setRemoving] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | undefined>();
  /** Where the focus goes once a removal's dialog has closed: an alias's Remove button, or the new-alias field. */
  const focusNext = useRef<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const limit = record.alias_limit;
  const suffix = `@${record.domain}`;
  const full = record.aliases.length >= limit;

  /** The refusal of an added name in the panel's words, for its field; undefined for any other failure. */
  const fieldRefusal = (err: unknown, email: string): string | undefined => {
    if (!(err instanceof PanelApiError)) return undefined;
    const { code, attributes } = err.body;
    if (code === errorCatalog.invalidAliases.code && attributes?.reserved === true) return t("reserved", { email });
    if (code === errorCatalog.nameTaken.code) return t("taken", { email });
    if (code === errorCatalog.aliasLimitReached.code)
      return t("domainFull", { limit: String(Number(attributes?.alias_limit)) });
    return undefined;
  };

  const apply = async (aliases: string[], done: string, added: string) => {
    setOutcome(null);
    try {
      await save.mutateAsync({ aliases });
      setOutcome({ ok: true, text: done });
      return true;
    } catch (err) {
      const onField = fieldRefusal(err, added);
      if (onField) {
        setFieldError(onField);
        document.getElementById(inputId)?.focus();
      } else setOutcome({ ok: false, text: errorText.failure(err) });
      return false;
    }
  };

  const remove = async () => {
    if (!removing) return;
    const email = removing;
    const at = record.aliases.indexOf(email);
    const rest = record.aliases.filter((a) => a !== email);
    setRemoveError(undefined);
    try {
      await save.mutateAsync({ aliases: rest });
    } catch (err) {
      setRemoveError(t("removeFailed", { error: errorText.failure(err) }));
      return;
    }
    setOutcome({ ok: true, text: t("removed", { email }) });
    // The alias that took its place, else the new-alias field (or, with the limit still used up, the one before).
    focusNext.current = rest[at] ?? (rest.length < limit ? ADD_FIELD : (rest[at - 1] ?? null));
    setRemoving(null);
  };

  // After the dialog has closed (its own effect runs first), so the browser's focus restore cannot undo it.
  useEffect(() => {
    const target = focusNext.current;
    if (removing !== null || target === null) return;
    focusNext.current = null;
    const button = [...(listRef.current?.querySelectorAll<HTMLElement>("[data-alias]") ?? [])].find(
      (b) => b.dataset.alias === target,
    );
    (button ?? document.getElementById(inputId))?.focus();
  }, [removing, record.aliases, inputId]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const n = name.trim().toLowerCase().replace(suffix, "");
    if (!isAccountName(n)) {
      setFieldError(t("invalid"));
      setOutcome(null);
      document.getElementById(inputId)?.focus();
      return;
    }
    setFieldError(undefined);
    const email = `${n}${suffix}`;
    // A form that succeeded starts empty for the next alias.
    if (await apply([...record.aliases, email], t("added", { email }), email)) setName("");
  };

  if (limit === 0 && record.aliases.length === 0) {
    return (
      <Card title={t("title")}>
        <p className="text-sm text-gray-800">{t("noneAllowed")}</p>
      </Card>
    );
  }
  return (
    <Card title={t("title")} description={t("desc", { domain: record.domain, limit: aliasCount(locale, limit) })}>
      <div className="space-y-4">
        {record.aliases.length === 0 ? (
          <p className="text-sm text-gray-800">{t("none")}</p>
        ) : (
          <ul ref={listRef} className="divide-y divide-gray-200 rounded border border-gray-300" aria-label={t("title")}>
            {record.aliases.map((email) => (
              <li key={email} className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm">
                <span className="min-w-0 font-medium">
                  <Address text={email} />
                </span>
                <Button
                  variant="ghost"
                  className="min-h-8 px-2"
                  aria-label={`${t("remove")}: ${email}`}
                  data-alias={email}
                  disabled={save.isPending}
                  onClick={() => {
                    setRemoveError(undefined);
                    setRemoving(email);
                  }}
                >
                  {t("remove")}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {full ? (
          <p className="text-sm text-gray-800">{t("full", { limit: aliasCount(locale, limit) })}</p>
        ) : (
          <form
            onSubmit={(e) => void add(e)}
            noValidate
            className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start sm:justify-start"
          >
            <TextField
              id={inputId}
              label={t("name")}
              hint={t("nameHint", { domain: record.domain })}
              value={name}
              autoCapitalize="none"
              spellCheck={false}
              maxLength={100}
              error={fieldError}
              onChange={(e) => setName(e.target.value)}
            />
            <Button type="submit" className="justify-self-start sm:mt-6" loading={save.isPending}>
              {t("add")}
            </Button>
          </form>
        )}
        {outcome && <Alert tone={outcome.ok ? "success" : "error"}>{outcome.text}</Alert>}
      </div>
      <ConfirmDialog
        open={removing !== null}
        danger
        title={t("confirmTitle")}
        description={removing && t("confirmText", { email: removing })}
        confirmLabel={t("confirmRemove")}
        pending={save.isPending}
        error={removeError}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}
