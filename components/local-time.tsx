"use client";
// A moment in the browser's time zone, with the offset shown ("25.11.2026 15:03:12 UTC+1"). The server does not know
// the browser's zone, so it renders the moment in UTC, labelled "UTC" (what a page without JavaScript keeps); the
// browser's first render is the same (hydration must match the server's HTML), and the next one, right after
// hydration, changes it to local time. Rendered after hydration (a table filled by a query), it is local at once.
import { Fragment, useSyncExternalStore } from "react";
import { useLocale } from "@/lib/i18n";
import { localOffset, momentParts, momentText } from "@/lib/i18n/date-time";

const noChanges = () => () => {};
/** false on the server and while hydrating, true after: useSyncExternalStore's documented server snapshot. */
const useHydrated = () =>
  useSyncExternalStore(
    noChanges,
    () => true,
    () => false,
  );

export function LocalTime({
  at,
  seconds = true,
  className,
}: {
  /** ms since the epoch, or an ISO timestamp with its zone. */
  at: number | string;
  seconds?: boolean;
  className?: string;
}) {
  const locale = useLocale();
  const hydrated = useHydrated();
  const offset = hydrated ? localOffset(at) : 0;
  const ms = new Date(at).getTime();
  return (
    <time
      dateTime={Number.isNaN(ms) ? undefined : new Date(ms).toISOString()}
      // The same moment in UTC, for comparing with logs on the server, once the text is local.
      title={offset !== 0 ? momentText(at, locale, 0, seconds) : undefined}
      className={className}
    >
      {/* A narrow column breaks between the date and the time, never inside either or before the offset. */}
      {momentParts(at, locale, offset, seconds).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && " "}
          <span className="whitespace-nowrap">{part}</span>
        </Fragment>
      ))}
    </time>
  );
}
