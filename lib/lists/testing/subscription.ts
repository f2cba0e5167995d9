// List cases: subscription by mail, and the limits of the list's page.
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { errorCatalog } from "@/lib/errors/catalog";
import { createAccount } from "@/lib/server/resources/accounts";
import { createMailingList, getListOrThrow, updateMailingLists } from "@/lib/server/resources/mailing-lists";
import { smtpSend, waitFor } from "@/lib/mailserver/testing/mail-daemons";
import { listStore } from "../store";
import {
  at,
  PW,
  l,
  db,
  publicUrl,
  domain,
  unique,
  message,
  mailOf,
  waitReceived,
  settle,
  outboundWith,
  text,
  linkIn,
  members,
  log,
  postAs,
} from "./harness";

export function subscriptionCases() {
  describe("subscription by mail", () => {
    it("SUBSCRIBE with the list's templates: never broadcast; a scanner's GET subscribes nobody; the POST does, with the welcome", async () => {
      const marker = unique("sub");
      await postAs(at("piotr"), "zapisy", "  SubScribe ", `${marker}\n`);
      const request = await waitReceived(at("piotr"), `Chcesz na ${at("zapisy")}?`);
      const body = await text(request);
      expect(body).toContain(`Adres ${at("piotr")} prosi o zapis na Zapisy pocztą. Kliknij: ${publicUrl()}/confirm/`);
      const link = await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/);
      await settle();
      expect(mailOf(at("jan")).some((m) => m.includes(marker))).toBe(false);
      expect((await members("zapisy")).accounts).not.toContain(at("piotr"));

      const scanned = await fetch(link);
      expect(scanned.status).toBe(200);
      expect(await scanned.text()).toContain("Potwierdź zapis");
      expect((await members("zapisy")).accounts).not.toContain(at("piotr"));

      expect((await fetch(link, { method: "POST" })).status).toBe(200);
      expect((await members("zapisy")).accounts).toContain(at("piotr"));
      const welcome = await waitReceived(at("piotr"), `Jesteś na ${at("zapisy")}`);
      expect(await text(welcome)).toContain(`Witaj ${at("piotr")} na Zapisy pocztą.`);
      // Single use.
      expect((await fetch(link, { method: "POST" })).status).toBe(410);
    });

    it("UNSUBSCRIBE with the list's templates", async () => {
      await postAs(at("jan"), "zapisy", "unsubscribe");
      const request = await waitReceived(at("jan"), `Odchodzisz z ${at("zapisy")}?`);
      const link = await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/);
      expect(link.startsWith(`${publicUrl()}/confirm/`)).toBe(true);
      expect((await text(request)).trim()).toBe(`Potwierdź wypisanie ${at("jan")} z ${at("zapisy")}: ${link}`);
      expect((await members("zapisy")).accounts).toContain(at("jan"));
      expect((await fetch(link, { method: "POST" })).status).toBe(200);
      expect((await members("zapisy")).accounts).not.toContain(at("jan"));
      const goodbye = await waitReceived(at("jan"), `Żegnaj z ${at("zapisy")}`);
      expect((await text(goodbye)).trim()).toBe(`Adres ${at("jan")} wypisany z Zapisy pocztą.`);
    });

    it("an UNSUBSCRIBE confirmed by an address that is not on the list changes nothing and sends no goodbye", async () => {
      expect((await members("zapisy")).accounts).not.toContain(at("marta"));
      await postAs(at("marta"), "zapisy", "unsubscribe");
      const request = await waitReceived(at("marta"), `Odchodzisz z ${at("zapisy")}?`);
      expect((await fetch(await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/), { method: "POST" })).status).toBe(
        200,
      );
      expect(log()).toContain(`${at("zapisy")}: ${at("marta")} was not subscribed: nothing to unsubscribe, no goodbye`);
      await settle();
      expect(await Promise.all(mailOf(at("marta")).map(async (m) => (await simpleParser(m)).subject))).not.toContain(
        `Żegnaj z ${at("zapisy")}`,
      );
    });

    it("SUBSCRIBE and UNSUBSCRIBE with the Polish defaults", async () => {
      await postAs(at("zofia"), "domyslna", "SUBSCRIBE");
      const request = await waitReceived(at("zofia"), `Potwierdź zapis na listę ${at("domyslna")}`);
      expect((await fetch(await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/), { method: "POST" })).status).toBe(
        200,
      );
      await waitReceived(at("zofia"), `Witamy na liście ${at("domyslna")}`);
      expect((await members("domyslna")).accounts).toContain(at("zofia"));
      await postAs(at("zofia"), "domyslna", "UNSUBSCRIBE");
      const again = await waitReceived(at("zofia"), `Potwierdź wypisanie z listy ${at("domyslna")}`);
      expect((await fetch(await linkIn(again, /http:\/\/\S+\/confirm\/[\w-]+/), { method: "POST" })).status).toBe(200);
      await waitReceived(at("zofia"), `Wypisano z listy ${at("domyslna")}`);
      expect((await members("domyslna")).accounts).not.toContain(at("zofia"));
    });

    it("a From of several addresses in one pair of brackets is no authenticated From: refused in the SMTP session, nobody gets a request", async () => {
      // addressparser reads <a,b> as one "address", and Postfix's sendmail splits it into two recipients: before, each
      // address packed into a forged From got the list's mail; later the envelope sender did, unauthenticated too.
      const packed = `From: <${at("ewa")},${at("marta")}>\nTo: <${at("domyslna")}>\nSubject: unsubscribe\n\nx\n`;
      await expect(smtpSend(l.ports.smtp, at("obcy"), [at("domyslna")], packed)).rejects.toThrow(
        /^SMTP: 5\d\d 5\.7\.1 A request by mail needs a From this server can authenticate/,
      );
      await settle();
      for (const who of ["ewa", "marta", "obcy"]) {
        expect(mailOf(at(who)).some((m) => m.includes("domyslna"))).toBe(false);
        expect(
          log().filter((line) => line.startsWith(`${at("domyslna")}: `) && line.includes(`request sent to ${at(who)}`)),
        ).toEqual([]);
      }
    });

    it("a SUBSCRIBE or UNSUBSCRIBE whose From is not authenticated is refused in the SMTP session, and nobody is mailed a request", async () => {
      // Before, the request went to whatever From the message named: anyone could make each list send any number of
      // strangers one message a day each, with the list owner's text, signed with the list's domain (backscatter).
      const d = await domain();
      const forger = "spamer@elsewhere.test";
      const victim = "ofiara@elsewhere.test";
      const before = log().filter((line) => line.includes("request sent to")).length;
      await expect(
        smtpSend(l.ports.smtp, forger, [at("domyslna")], message(victim, at("domyslna"), "SUBSCRIBE")),
      ).rejects.toThrow(/^SMTP: 5\d\d 5\.7\.1 A request by mail needs a From this server can authenticate/);
      // A hosted account's address as the From, sent from outside (no login, no DMARC): the same.
      await expect(
        smtpSend(l.ports.smtp, forger, [at("zapisy")], message(at("ewa"), at("zapisy"), "unsubscribe")),
      ).rejects.toThrow(/^SMTP: 5\d\d 5\.7\.1 A request by mail needs a From this server can authenticate/);
      // Where the SMTP session cannot judge it (a forward of an account that keeps its copy meets the list only after
      // acceptance), the list service drops it instead of answering.
      await createAccount(db, d, "przekazuje-prosby", { password: PW, forwards: [at("zapisy")], keep_mail: 1 });
      const forwarded = unique("forwarded-request");
      await smtpSend(
        l.ports.smtp,
        forger,
        [at("przekazuje-prosby")],
        message(victim, at("przekazuje-prosby"), "UNSUBSCRIBE", "", `${forwarded}\n`),
      );
      await waitReceived(at("przekazuje-prosby"), "UNSUBSCRIBE");
      await waitFor("the forward dropped by the list service", () =>
        log().some((line) =>
          line.includes(`${at("zapisy")}: post from ${victim} dropped after acceptance (5.7.1 A request by mail`),
        ),
      );
      await settle();
      expect(log().filter((line) => line.includes("request sent to")).length).toBe(before);
      expect(outboundWith(victim)).toEqual([]);
      expect(mailOf(at("ewa")).some((m) => m.includes(`Odchodzisz z ${at("zapisy")}?`))).toBe(false);
    });

    it("an RFC 2047 encoded UNSUBSCRIBE to a closed list is a request, as the SMTP session judged it, not a bounce", async () => {
      // Rspamd decodes the subject before the policy service judges it at the end of DATA; the list service read it
      // raw, took the message for an outsider's post, refused it after acceptance, and Postfix bounced it.
      const marker = unique("encoded");
      await postAs(at("karol"), "zamknieta", "=?utf-8?q?unsubscribe?=", `${marker}\n`);
      await waitFor("the request", () =>
        log().includes(`${at("zamknieta")}: unsubscribe request sent to ${at("karol")}`),
      );
      await settle();
      // A bounce would come back to karol's own mailbox with the message in it.
      expect(mailOf(at("karol")).some((m) => m.includes(marker))).toBe(false);
      expect(mailOf(at("jan")).some((m) => m.includes(marker))).toBe(false);
    });

    it("confirm_url: the link is the list's own page with the token; its POST to this service confirms", async () => {
      await postAs(at("karol"), "zewnetrzna", "subscribe");
      const request = await waitReceived(at("karol"), `Potwierdź zapis na listę ${at("zewnetrzna")}`);
      const link = await linkIn(request, /https:\/\/www\.example\.test\/potwierdz\?lista=1&token=[\w-]+/);
      expect(link).not.toBe("");
      const token = new URL(link).searchParams.get("token")!;
      expect(
        (await fetch(`${publicUrl()}/confirm`, { method: "POST", body: new URLSearchParams({ token }) })).status,
      ).toBe(200);
      expect((await members("zewnetrzna")).accounts).toEqual([at("karol")]);
    });

    it("a subscribe link confirmed after the list stopped taking subscriptions (autosubscribe_enabled 0) subscribes nobody", async () => {
      const d = await domain();
      await createMailingList(db, d, "zamyka-zapisy", { autosubscribe_enabled: 1 });
      await postAs(at("zofia"), "zamyka-zapisy", "SUBSCRIBE");
      const request = await waitReceived(at("zofia"), `Potwierdź zapis na listę ${at("zamyka-zapisy")}`);
      const link = await linkIn(request, /http:\/\/\S+\/confirm\/[\w-]+/);
      // The owner closes subscriptions by mail before the link is followed.
      await updateMailingLists(db, d, ["zamyka-zapisy"], { autosubscribe_enabled: 0 });
      const answer = await fetch(link, { method: "POST" });
      expect(answer.status).toBe(403);
      const text = await answer.text();
      expect(text).toContain("Na tę listę nie można zapisać się samodzielnie.");
      expect(text).toContain(at("zamyka-zapisy"));
      expect((await members("zamyka-zapisy")).accounts).toEqual([]);
      await settle();
      expect(mailOf(at("zofia")).filter((m) => m.includes("Witamy na li"))).toEqual([]);
    });

    it("an expired token subscribes nobody", async () => {
      const list = await getListOrThrow(db, await domain(), "domyslna");
      const made = await listStore(db).requestToken(list.id, "subscribe", at("karol"), -1000);
      const token = "token" in made ? made.token : "";
      expect((await fetch(`${publicUrl()}/confirm/${token}`)).status).toBe(410);
      expect((await fetch(`${publicUrl()}/confirm/${token}`, { method: "POST" })).status).toBe(410);
      expect((await members("domyslna")).accounts).not.toContain(at("karol"));
    });

    it("SUBSCRIBE to a list without autosubscribe is refused in the SMTP session (5xx at end of DATA), not broadcast, no bounce", async () => {
      const marker = unique("nosub");
      await expect(
        smtpSend(
          l.ports.smtp,
          "karol@elsewhere.test",
          [at("bezzapisow")],
          message("karol@elsewhere.test", at("bezzapisow"), "subscribe", "", `${marker}\n`),
        ),
      ).rejects.toThrow(/^SMTP: 5\d\d 5\.7\.1 This list does not take subscriptions by mail/);
      await settle();
      expect(outboundWith(marker)).toEqual([]);
      expect(mailOf(at("jan")).some((m) => m.includes(marker))).toBe(false);
    });
  });

  describe("the list's page (List-Help): confirmation requests are limited", () => {
    const ask = (list: string, address: string, action = "subscribe") =>
      fetch(`${publicUrl()}/lists/${encodeURIComponent(at(list))}`, {
        method: "POST",
        body: new URLSearchParams({ address, action }),
      });
    const refusal = async (res: Response, key: "listRequestPending" | "listRequestBudget") => {
      expect(res.status).toBe(errorCatalog[key].status);
      const html = await res.text();
      expect(html).toContain(`data-code="${errorCatalog[key].code}"`);
      expect(html).toContain(errorCatalog[key].message);
    };

    it("40 requests for one address at once send one mail; the others are refused with the catalog's error", async () => {
      await createMailingList(db, await domain(), "strona", { autosubscribe_enabled: 1, description: "Strona listy" });
      const answers = await Promise.all(Array.from({ length: 40 }, () => ask("strona", at("marta"))));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of answers.filter((r) => r.status !== 200)) await refusal(r, "listRequestPending");
      await waitReceived(at("marta"), `Potwierdź zapis na listę ${at("strona")}`);
      await settle();
      const requests = await Promise.all(mailOf(at("marta")).map((raw) => simpleParser(raw)));
      expect(requests.filter((m) => m.subject === `Potwierdź zapis na listę ${at("strona")}`)).toHaveLength(1);
      // An unsubscription request is a request too: still pending for this address and list.
      await refusal(await ask("strona", at("marta"), "unsubscribe"), "listRequestPending");
    });

    it("an address field holding more than one address is refused before any request or budget", async () => {
      // One "@" in all: a local part with a comma, which sendmail would split into "adres7" and marta's address.
      const res = await ask("zapisy", `adres7,${at("marta")}`);
      expect(res.status).toBe(400);
      expect(log().filter((line) => line.includes("adres7,"))).toEqual([]);
    });

    it("one client address gets a few requests an hour over all lists, then the catalog's error", async () => {
      // The first test's request used one of the five.
      for (const n of [1, 2, 3, 4]) expect((await ask("strona", `adres${n}@sink.test`)).status).toBe(200);
      await refusal(await ask("strona", "adres5@sink.test"), "listRequestBudget");
      await refusal(await ask("zapisy", "adres6@sink.test"), "listRequestBudget");
      await settle();
    });

    it("IPv6 addresses of one /64 share one budget: a client cannot take a new address for each request", async () => {
      // Through the loopback proxy (TRUSTED_PROXIES), X-Forwarded-For names the client. Before, each address had its
      // own budget, so one host with its /64 could have the list mail any number of strangers.
      const from = (client: string, n: number) =>
        fetch(`${publicUrl()}/lists/${encodeURIComponent(at("strona"))}`, {
          method: "POST",
          headers: { "X-Forwarded-For": client },
          body: new URLSearchParams({ address: `v6-${n}@sink.test`, action: "subscribe" }),
        });
      for (const n of [1, 2, 3, 4, 5]) expect((await from(`2001:db8:1:2::${n}`, n)).status).toBe(200);
      await refusal(await from("2001:db8:1:2:ffff:ffff:ffff:9", 6), "listRequestBudget");
      // Another /64 has its own.
      expect((await from("2001:db8:1:3::1", 7)).status).toBe(200);
      expect(
        log().filter((line) => line.includes("request for v6-6@sink.test from 2001:db8:1:2::/64 refused")),
      ).toHaveLength(1);
      await settle();
    });
  });
}
