import "server-only";
// Subscribing and unsubscribing: the confirmation requests, the confirmed changes and their welcome or goodbye mail.
import type { ListServiceOptions } from "./options";
import { sendComposed } from "./sendmail";
import type { ListRow, ListStore, RequestRefusal } from "./store";
import { render, templateOf, type TemplateName } from "./templates";
import { readUnsubscribeToken } from "./unsubscribe";

/**
 * The list's own confirmation page (confirm_url) with the token in its query, before any #fragment: after it, the
 * browser would keep the token to itself and the page's server would never see it.
 */
export function withToken(confirmUrl: string, token: string): string {
  const hash = confirmUrl.indexOf("#");
  const [page, fragment] = hash < 0 ? [confirmUrl, ""] : [confirmUrl.slice(0, hash), confirmUrl.slice(hash)];
  return `${page}${page.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}${fragment}`;
}

/** A followed confirmation link: what it was for; `closed` when the list no longer takes subscriptions by mail. */
export interface Confirmed {
  list: ListRow;
  action: string;
  address: string;
  closed?: boolean;
}

export interface ListSubscriptions {
  requestConfirmation: (
    list: ListRow,
    action: "subscribe" | "unsubscribe",
    address: string,
    client?: string,
  ) => Promise<RequestRefusal | undefined>;
  confirm: (token: string) => Promise<Confirmed | undefined>;
  oneClick: (token: string) => Promise<{ list: ListRow; address: string } | undefined>;
}

export function listSubscriptions(o: ListServiceOptions, store: ListStore): ListSubscriptions {
  /** A one-click unsubscription (RFC 8058 POST): at once, no confirmation; the goodbye when the address was on. */
  async function oneClick(token: string): Promise<{ list: ListRow; address: string } | undefined> {
    const t = await readUnsubscribeToken(o.db, token);
    const list = t && (await store.listById(t.listId));
    if (!t || !list) return undefined;
    if (await store.unsubscribe(list.id, t.address)) {
      o.log(`${list.email}: ${t.address} unsubscribed (one-click)`);
      await sendTemplate(list, "unsubscribe_mail", t.address);
    }
    return { list, address: t.address };
  }

  const values = (list: ListRow, address: string, link?: string) => ({
    list: list.email,
    description: list.description || list.email,
    address,
    confirm_link: link,
  });

  async function sendTemplate(list: ListRow, name: TemplateName, to: string, link?: string) {
    const t = templateOf(list, name);
    const v = values(list, to, link);
    await sendComposed(o, list, list.description || list.email, to, render(t.subject, v), render(t.body, v));
  }

  function confirmLink(list: ListRow, token: string): string {
    if (!list.confirmUrl) return `${o.publicUrl}/confirm/${token}`;
    return withToken(list.confirmUrl, token);
  }

  /**
   * SUBSCRIBE/UNSUBSCRIBE (by mail or from the list's page): a confirmation request to the address, at most one
   * pending per list and address, and from the pages at most `requestsPerHour` per client address.
   */
  async function requestConfirmation(
    list: ListRow,
    action: "subscribe" | "unsubscribe",
    address: string,
    client?: string,
  ): Promise<RequestRefusal | undefined> {
    const made = await store.requestToken(
      list.id,
      action,
      address,
      o.tokenHours * 3_600_000,
      client ? { address: client, budget: o.requestsPerHour } : undefined,
    );
    if ("refused" in made) {
      o.log(
        `${list.email}: ${action} request for ${address}${client ? ` from ${client}` : ""} refused (${made.refused})`,
      );
      return made.refused;
    }
    await sendTemplate(
      list,
      action === "subscribe" ? "subscribe_request_mail" : "unsubscribe_request_mail",
      address,
      confirmLink(list, made.token),
    );
    o.log(`${list.email}: ${action} request sent to ${address}`);
    return undefined;
  }

  /**
   * A confirmation link followed (POST): single use; subscribes or unsubscribes, then the welcome or goodbye (none
   * to an address that was not on the list: mail about a membership it never had). A subscription takes effect
   * only now, so it follows the list's autosubscribe_enabled as it is now: a list that stopped taking subscriptions
   * since the request subscribes nobody.
   */
  async function confirm(token: string): Promise<Confirmed | undefined> {
    const t = await store.takeToken(token);
    const list = t && (await store.listById(t.listId));
    if (!t || !list) return undefined;
    if (t.action === "subscribe" && !list.autosubscribeEnabled) {
      o.log(`${list.email}: ${t.address} not subscribed: the list no longer takes subscriptions by mail`);
      return { list, action: t.action, address: t.address, closed: true };
    }
    if (t.action === "subscribe") await store.subscribe(list.id, t.address);
    else if (!(await store.unsubscribe(list.id, t.address))) {
      o.log(`${list.email}: ${t.address} was not subscribed: nothing to unsubscribe, no goodbye`);
      return { list, action: t.action, address: t.address };
    }
    o.log(`${list.email}: ${t.address} ${t.action}d`);
    await sendTemplate(list, t.action === "subscribe" ? "subscribe_mail" : "unsubscribe_mail", t.address);
    return { list, action: t.action, address: t.address };
  }

  return { requestConfirmation, confirm, oneClick };
}
