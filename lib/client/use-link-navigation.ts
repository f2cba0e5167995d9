"use client";
// Long tables link each row to its editor with a plain <a> and one click handler on the table, instead of a
// next/link per row: every Link is a component with its own hooks, and hydrating one per row was a measurable share
// of the account table's main-thread work on load. The handler does what Link does on a click: an
// unmodified primary click on a same-origin link navigates client-side; anything else stays the browser's.
import { useRouter } from "next/navigation";
import { useCallback, type MouseEvent } from "react";

export function useLinkNavigation(): (event: MouseEvent<HTMLElement>) => void {
  const router = useRouter();
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute("download")) return;
      if (link.origin !== window.location.origin) return;
      event.preventDefault();
      router.push(link.pathname + link.search + link.hash);
    },
    [router],
  );
}
