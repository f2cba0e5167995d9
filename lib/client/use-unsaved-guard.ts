"use client";
// Asks before unsaved changes are thrown away: a tab close or reload (the browser's own beforeunload question)
// and an in-app link (a confirm() before Next's <Link> handler runs: the listener sits on the document in the
// capture phase, ahead of React's listener on its root, and stops the click when the answer is no). Not covered:
// the browser's back and forward buttons inside the app (Next offers no way to hold a history navigation).
import { useEffect } from "react";

/** The in-app link a click would follow, or null (modified clicks, other windows, downloads, the same page). */
function leavingLink(e: MouseEvent): HTMLAnchorElement | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = e.target instanceof Element ? e.target.closest("a[href]") : null;
  if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== "_self") || a.hasAttribute("download"))
    return null;
  const to = new URL(a.href, location.href);
  if (to.pathname === location.pathname && to.search === location.search) return null;
  return a;
}

/** While `active`, asks `question` before in-app navigation and lets the browser ask before unloading. */
export function useUnsavedChangesGuard(active: boolean, question: string): void {
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium needs returnValue set to show the dialog.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (!leavingLink(e)) return;
      if (!window.confirm(question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [active, question]);
}
