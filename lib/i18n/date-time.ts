// A moment (a timestamp, not a calendar date) as the panel shows it: the date as formatDate writes dates
// (DD.MM.RRRR in Polish, YYYY-MM-DD in English), the time on a 24-hour clock, and the offset from UTC the time is
// in, always written: "25.11.2026 15:03:12 UTC+1", or "… UTC" for UTC itself (docs/panel.md, "Times").
import { formatDate } from "@/lib/errors/details";
import type { Locale } from "@/lib/i18n";

/** "UTC", "UTC+1", "UTC-3", "UTC+5:30" for an offset east of UTC in minutes. */
export function utcOffsetLabel(minutes: number): string {
  if (minutes === 0) return "UTC";
  const abs = Math.abs(minutes);
  const mm = abs % 60;
  return `UTC${minutes > 0 ? "+" : "-"}${Math.floor(abs / 60)}${mm ? `:${String(mm).padStart(2, "0")}` : ""}`;
}

/**
 * The moment `at` (ms since the epoch, or an ISO string with its zone) at the wall clock `offset` minutes east of
 * UTC, with that offset named. To the second or, with `seconds: false`, to the minute.
 */
export const momentText = (at: number | string, locale: Locale, offset: number, seconds = true): string =>
  momentParts(at, locale, offset, seconds).join(" ");

/** momentText's two halves, the date and the time with its offset: a narrow column breaks between them only. */
export function momentParts(
  at: number | string,
  locale: Locale,
  offset: number,
  seconds = true,
): [date: string, time: string] | [text: string] {
  const ms = typeof at === "number" ? at : Date.parse(at);
  if (Number.isNaN(ms)) return [String(at)];
  const wall = new Date(ms + offset * 60_000).toISOString();
  return [formatDate(wall.slice(0, 10), locale), `${wall.slice(11, seconds ? 19 : 16)} ${utcOffsetLabel(offset)}`];
}

/** The browser's offset from UTC at the moment `at` (so a summer entry shows UTC+2 and a winter one UTC+1 in Poland). */
export const localOffset = (at: number | string) => -new Date(at).getTimezoneOffset() || 0;
