import "server-only";
// In-process calls from the panel's backend-for-frontend (app/api/panel/v1) into the v1 route handlers.
// Browser users reach the service through their panel session, not from an allowed client address, so the v1
// client address rule must not apply to them. Such calls carry a per-process random secret that only code inside
// this process knows; it never leaves the process (the BFF builds its inner Request itself, copying no client
// headers), so a client cannot forge it. It lives on globalThis because Next may load a module once per route bundle.
import { randomBytes, timingSafeEqual } from "node:crypto";

export const PANEL_CALL_HEADER = "x-mailadmin-panel-call";

const holder = globalThis as { __mailadminPanelCallSecret?: Buffer };

function secret(): Buffer {
  holder.__mailadminPanelCallSecret ??= randomBytes(32);
  return holder.__mailadminPanelCallSecret;
}

/** The header value the BFF puts on its in-process requests. */
export const panelCallToken = () => secret().toString("hex");

/** True only for a request built in this process by the BFF. */
export function isPanelCall(req: Request): boolean {
  const sent = req.headers.get(PANEL_CALL_HEADER);
  if (!sent || !/^[0-9a-f]{64}$/.test(sent)) return false;
  return timingSafeEqual(Buffer.from(sent, "hex"), secret());
}
