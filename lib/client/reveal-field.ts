"use client";
// Where a form puts the user after a failed save: on its first invalid field in page order, with the field, its
// hint and its error message on screen, above the form's sticky save bar (if it has one). RHF's own focus follows
// the order in which fields registered (a date field's controller registers after the plain inputs), and the
// browser's scroll on focus knows nothing of the bar nor of the message drawn under the field afterwards.

/** The attribute marking a form's sticky save bar (the postmaster's long editors). */
export const STICKY_SAVE_BAR = "data-sticky-save-bar";

/** Room left between the field's message and the bar, and between the field and the window's top. */
const GAP = 12;

/** The control with the texts that describe it (aria-describedby: hint, error), as one box on screen. */
function extentOf(el: HTMLElement): { top: number; bottom: number } {
  const ids = (el.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  const parts = [el, ...ids.map((id) => document.getElementById(id)).filter((p): p is HTMLElement => !!p)];
  const boxes = parts.map((p) => p.getBoundingClientRect());
  return { top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)) };
}

/**
 * Scrolls the window so that `el` and its hint and error end above the sticky save bar of its form; a field too tall
 * for the room keeps its top on screen. Nothing happens in a form without such a bar, or for the bar's own controls.
 */
export function revealAboveStickyBar(el: HTMLElement): void {
  const bar = el.closest("form")?.querySelector<HTMLElement>(`[${STICKY_SAVE_BAR}]`);
  if (!bar || bar.contains(el)) return;
  const { top, bottom } = extentOf(el);
  const covered = bottom + GAP - bar.getBoundingClientRect().top;
  if (covered <= 0) return;
  const by = Math.min(covered, top - GAP);
  if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
}

/** Focuses the first control marked invalid (aria-invalid) in `form`, in page order, and reveals it. */
export function focusFirstInvalid(form: HTMLFormElement): HTMLElement | null {
  const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!first) return null;
  if (document.activeElement !== first) first.focus();
  revealAboveStickyBar(first);
  return first;
}
