// The panel's words for the API's field names and coded values, so an audit log entry reads as the panel does
// ("Prywatność: otwarta → moderowana") instead of `privacy_mode: 0 → 1`, and a CSV export's cell says "tak", not "1".
import type { Locale } from "@/lib/i18n";

type Words = Record<Locale, string>;
type Values = Record<string, Words>;

const yesNo: Values = { "0": { pl: "nie", en: "no" }, "1": { pl: "tak", en: "yes" } };
const onOff: Values = { "0": { pl: "wyłączone", en: "off" }, "1": { pl: "włączone", en: "on" } };
const triState: Values = {
  "-1": { pl: "jak w domenie", en: "as the domain" },
  "0": { pl: "wyłączone", en: "off" },
  "1": { pl: "włączone", en: "on" },
};

/** Label and, for coded fields, the names of the values. Fields not named here are shown as the API names them. */
const FIELDS: Record<string, { label: Words; values?: Values }> = {
  description: { label: { pl: "Opis", en: "Description" } },
  capacity: { label: { pl: "Pojemność (MB)", en: "Capacity (MB)" } },
  password: { label: { pl: "Hasło", en: "Password" } },
  usage_notification_level: { label: { pl: "Powiadomienie o zajętości (%)", en: "Usage notification (%)" } },
  expiration_date: { label: { pl: "Data wygaśnięcia", en: "Expiry date" } },
  keep_mail: { label: { pl: "Zostaw kopię przekazanej poczty", en: "Keep a copy of forwarded mail" }, values: yesNo },
  forwards: { label: { pl: "Przekazywanie", en: "Forwards" } },
  forward_limit: { label: { pl: "Limit przekierowań", en: "Forward limit" } },
  aliases: { label: { pl: "Aliasy", en: "Aliases" } },
  alias_limit: { label: { pl: "Limit aliasów", en: "Alias limit" } },
  inbox_delete_after: { label: { pl: "Usuwaj ze skrzynki po (dniach)", en: "Delete from inbox after (days)" } },
  trash_delete_after: { label: { pl: "Usuwaj z kosza po (dniach)", en: "Delete from trash after (days)" } },
  spam_enabled: { label: { pl: "Filtr antyspamowy", en: "Spam filter" }, values: onOff },
  spam_rule: {
    label: { pl: "Co robić ze spamem", en: "What to do with spam" },
    values: { tag: { pl: "oznacz", en: "tag" }, move: { pl: "przenieś do folderu Spam", en: "move to Spam" } },
  },
  spam_hits: { label: { pl: "Próg spamu", en: "Spam threshold" } },
  spam_delete_after: { label: { pl: "Usuwaj spam po (dniach)", en: "Delete spam after (days)" } },
  spam_white_list: { label: { pl: "Biała lista", en: "Allow list" } },
  spam_black_list: { label: { pl: "Czarna lista", en: "Block list" } },
  spam_greylist_whitelist: { label: { pl: "Bez szarej listy", en: "Greylisting exceptions" } },
  spam_spf_whitelist: { label: { pl: "Bez sprawdzania SPF", en: "SPF exceptions" } },
  spam_rbl_whitelist: { label: { pl: "Bez sprawdzania RBL", en: "RBL exceptions" } },
  spam_rbl_enabled: { label: { pl: "Sprawdzanie RBL", en: "RBL check" }, values: triState },
  spam_spf_enabled: { label: { pl: "Sprawdzanie SPF", en: "SPF check" }, values: triState },
  spam_greylist_enabled: { label: { pl: "Szara lista", en: "Greylisting" }, values: triState },
  sms_phone_number_1: { label: { pl: "Telefon SMS 1", en: "SMS phone 1" } },
  sms_phone_number_2: { label: { pl: "Telefon SMS 2", en: "SMS phone 2" } },
  sms_login_1: { label: { pl: "Login SMS 1", en: "SMS login 1" } },
  sms_login_2: { label: { pl: "Login SMS 2", en: "SMS login 2" } },
  sms_password_1: { label: { pl: "Hasło SMS 1", en: "SMS password 1" } },
  sms_password_2: { label: { pl: "Hasło SMS 2", en: "SMS password 2" } },
  sms_operator_1: { label: { pl: "Operator SMS 1", en: "SMS operator 1" } },
  sms_operator_2: { label: { pl: "Operator SMS 2", en: "SMS operator 2" } },
  sms_send_to: { label: { pl: "Powiadomienia SMS na", en: "SMS notices to" } },
  sms_cnt: { label: { pl: "Liczba SMS", en: "SMS count" } },
  autoresponder_mode: { label: { pl: "Autoresponder", en: "Autoresponder" }, values: onOff },
  autoresponder_start_date: { label: { pl: "Autoresponder od", en: "Autoresponder from" } },
  autoresponder_end_date: { label: { pl: "Autoresponder do", en: "Autoresponder until" } },
  autoresponder_body: { label: { pl: "Treść autorespondera", en: "Autoresponder text" } },
  blocked: { label: { pl: "Zablokowane", en: "Blocked" }, values: yesNo },
  target: { label: { pl: "Cel", en: "Target" } },
  privacy_mode: {
    label: { pl: "Prywatność", en: "Privacy" },
    values: {
      "0": { pl: "otwarta", en: "open" },
      "1": { pl: "moderowana", en: "moderated" },
      "2": { pl: "zamknięta", en: "closed" },
    },
  },
  replyto_mode: {
    label: { pl: "Odpowiedzi trafiają do", en: "Replies go to" },
    values: {
      "0": { pl: "listy", en: "the list" },
      "1": { pl: "nadawcy", en: "the sender" },
      "2": { pl: "adresu dla odpowiedzi", en: "the reply address" },
    },
  },
  replyto_email: { label: { pl: "Adres dla odpowiedzi", en: "Reply address" } },
  replyto_catchall: {
    label: { pl: "Przekazuj na adres dla odpowiedzi", en: "Forward to the reply address" },
    values: yesNo,
  },
  confirm_url: { label: { pl: "Strona potwierdzenia", en: "Confirmation page" } },
  autosubscribe_enabled: {
    label: { pl: "Zapis przez SUBSCRIBE", en: "SUBSCRIBE by mail" },
    values: yesNo,
  },
  subscribe_request_mail_subject: {
    label: { pl: "Prośba o potwierdzenie zapisu: temat", en: "Subscription request: subject" },
  },
  subscribe_request_mail_body: {
    label: { pl: "Prośba o potwierdzenie zapisu: treść", en: "Subscription request: text" },
  },
  unsubscribe_request_mail_subject: {
    label: { pl: "Prośba o potwierdzenie wypisu: temat", en: "Unsubscription request: subject" },
  },
  unsubscribe_request_mail_body: {
    label: { pl: "Prośba o potwierdzenie wypisu: treść", en: "Unsubscription request: text" },
  },
  subscribe_mail_subject: { label: { pl: "Powitanie: temat", en: "Welcome: subject" } },
  subscribe_mail_body: { label: { pl: "Powitanie: treść", en: "Welcome: text" } },
  unsubscribe_mail_subject: { label: { pl: "Pożegnanie: temat", en: "Farewell: subject" } },
  unsubscribe_mail_body: { label: { pl: "Pożegnanie: treść", en: "Farewell: text" } },
  accounts: { label: { pl: "Subskrybenci", en: "Subscribers" } },
  moderators: { label: { pl: "Moderatorzy", en: "Moderators" } },
  catchall_type: {
    label: { pl: "Konto domyślne", en: "Default account" },
    values: {
      "0": { pl: "brak", en: "none" },
      "1": { pl: "konto w tej domenie", en: "an account in this domain" },
      "2": { pl: "konto w innej domenie", en: "an account in another domain" },
      "3": { pl: "inna domena", en: "another domain" },
    },
  },
  catchall_address: { label: { pl: "Adres konta domyślnego", en: "Default account address" } },
  account_limit: { label: { pl: "Limit kont", en: "Account limit" } },
  mailinglist_limit: { label: { pl: "Limit list", en: "List limit" } },
  capacity_limit: { label: { pl: "Limit pojemności (MB)", en: "Capacity limit (MB)" } },
  send_limit: { label: { pl: "Limit wysyłki (odbiorców na godzinę)", en: "Sending limit (recipients per hour)" } },
  totp: {
    label: { pl: "Logowanie dwuetapowe", en: "Two-step sign-in" },
    values: { off: { pl: "wyłączone", en: "off" }, on: { pl: "włączone", en: "on" } },
  },
};

/** The field's label in `locale`, or its API name when the panel has no word for it. */
export const fieldLabel = (field: string, locale: Locale) => FIELDS[field]?.label[locale] ?? field;

/** A value of `field` in `locale`: a coded value by its name, anything else as it is. */
export function fieldValue(field: string, value: unknown, locale: Locale): unknown {
  const named = FIELDS[field]?.values?.[String(value)];
  return named ? named[locale] : value;
}
