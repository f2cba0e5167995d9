import "server-only";
// The list service (docs/lists.md): Postfix delivers mail for list addresses to its LMTP listener; it decides who
// may post, holds posts for moderation, answers SUBSCRIBE/UNSUBSCRIBE, records bounces, and hands the copies back
// to Postfix. Its small HTTP server serves the confirmation and moderation pages (PUBLIC_URL).
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import { listDistribution } from "./distribution";
import { startListLmtp } from "./lmtp";
import type { ListServiceOptions } from "./options";
import { startListPages } from "./pages";
import { listStore } from "./store";
import { listSubscriptions } from "./subscriptions";
import { readUnsubscribeToken } from "./unsubscribe";

export interface ListService {
  /** The LMTP listener's TCP port; 0 when it listens on a unix socket. */
  lmtpPort: number;
  httpPort: number;
  /** Sends approved posts and expires old ones now (also runs every pollMs). */
  pump(): Promise<void>;
  close(): Promise<void>;
}

export async function startListService(o: ListServiceOptions): Promise<ListService> {
  const store = listStore(o.db);
  fs.mkdirSync(o.spoolDir, { recursive: true, mode: 0o700 });
  const distribution = listDistribution(o, store);
  const { pump } = distribution;
  const subscriptions = listSubscriptions(o, store);
  const { confirm, oneClick, requestConfirmation } = subscriptions;
  const server = await startListLmtp(o, store, distribution, subscriptions);
  const timer = setInterval(() => void pump(), o.pollMs);

  const pages = await startListPages({
    host: o.http.host,
    port: o.http.port,
    store,
    peek: async (token) => {
      const t = await store.peekToken(token);
      const list = t && (await store.listById(t.listId));
      return t && list ? { list, action: t.action, address: t.address } : undefined;
    },
    confirm,
    unsubscribeTarget: async (token) => {
      const t = await readUnsubscribeToken(o.db, token);
      const list = t && (await store.listById(t.listId));
      return t && list ? { list, address: t.address } : undefined;
    },
    oneClick,
    moderation: async (token) => {
      const post = await store.heldByToken(token);
      const list = post && (await store.listById(post.listId));
      return post && list && post.status === "held" ? { post, list } : undefined;
    },
    moderate: async (token, action) => {
      const post = await store.heldByToken(token);
      if (!post || post.status !== "held") return false;
      if (action === "approve") {
        await store.approve(post.id);
        await pump();
      } else {
        await store.deleteHeld(post.id);
      }
      o.log(`held post ${post.id} ${action === "approve" ? "approved" : "rejected"} through the moderator's link`);
      return true;
    },
    requestConfirmation: async (list, action, address, client) => {
      if (action === "subscribe" && !list.autosubscribeEnabled) return "closed";
      return (await requestConfirmation(list, action, address, client)) ?? "sent";
    },
  });

  return {
    lmtpPort: "path" in o.lmtp ? 0 : (server.server.address() as AddressInfo).port,
    httpPort: pages.port,
    pump,
    async close() {
      clearInterval(timer);
      await distribution.close();
      await pages.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
