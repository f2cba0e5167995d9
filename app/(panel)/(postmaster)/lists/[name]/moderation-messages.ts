import type { Messages } from "@/lib/i18n";

type Key =
  | "held"
  | "heldDesc"
  | "heldNone"
  | "sender"
  | "subject"
  | "date"
  | "size"
  | "actions"
  | "approve"
  | "reject"
  | "approved"
  | "loading"
  | "failed"
  | "bounces"
  | "bouncesDesc"
  | "bouncesNone"
  | "address"
  | "count"
  | "lastAt"
  | "reason"
  | "noSubject";

export const moderationMessages: Messages<Key> = {
  pl: {
    held: "Wiadomości do moderacji",
    heldDesc:
      "Czekają na decyzję; bez niej zostaną usunięte po {days} dniach. Zatwierdzone rozsyła usługa list w ciągu kilku sekund.",
    heldNone: "Żadna wiadomość nie czeka na moderację.",
    sender: "Nadawca",
    subject: "Temat",
    date: "Otrzymano",
    size: "Rozmiar",
    actions: "Decyzja",
    approve: "Zatwierdź",
    reject: "Odrzuć",
    approved: "zatwierdzona, rozsyłanie…",
    loading: "Wczytywanie…",
    failed: "Nie udało się: {error}",
    bounces: "Zwroty",
    bouncesDesc: "Adresy subskrybentów, z których poczta listy wróciła jako niedoręczona.",
    bouncesNone: "Brak zwrotów.",
    address: "Adres",
    count: "Liczba",
    lastAt: "Ostatni",
    reason: "Powód",
    noSubject: "(bez tematu)",
  },
  en: {
    held: "Posts held for moderation",
    heldDesc:
      "Waiting for a decision; deleted after {days} days without one. The list service sends approved posts within seconds.",
    heldNone: "No post is waiting for moderation.",
    sender: "Sender",
    subject: "Subject",
    date: "Received",
    size: "Size",
    actions: "Decision",
    approve: "Approve",
    reject: "Reject",
    approved: "approved, sending…",
    loading: "Loading…",
    failed: "Failed: {error}",
    bounces: "Bounces",
    bouncesDesc: "Subscribers' addresses the list's mail came back from as undeliverable.",
    bouncesNone: "No bounces.",
    address: "Address",
    count: "Count",
    lastAt: "Last",
    reason: "Reason",
    noSubject: "(no subject)",
  },
};
