// List cases: the headers of every copy, and one-click unsubscription.
import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { createMailingList, getListOrThrow } from "@/lib/server/resources/mailing-lists";
import { currentDkimKey, dkimRecord } from "@/lib/mailserver/dkim";
import { readDnsRecords, writeDnsRecords } from "@/lib/mailserver/sandbox/dns-server";
import {
  INTERNAL_HEADERS,
  POSTER_HEADER,
  SCORE_HEADER,
  SCORE_HEADER_READABLE,
  SENDER_VERIFIED_HEADER,
} from "@/lib/mailserver/antispam-config";
import { dkimVerify, run, sandboxTxtResolver, waitFor } from "@/lib/mailserver/testing/mail-daemons";
import {
  A,
  at,
  db,
  l,
  root,
  publicUrl,
  domain,
  unique,
  post,
  postAs,
  waitReceived,
  header,
  members,
  outboundWith,
  verpOf,
} from "./harness";

export function headersAndUnsubscribeCases() {
  describe("headers of every copy", () => {
    it("From is the list with its description, List-* headers, Precedence, the poster in X-Original-From, VERP envelope", async () => {
      const subject = unique("headers");
      await post(
        at("obcy"),
        "otwarta",
        subject,
        "Reply-To: <elsewhere@outside.test>\nList-Id: <other.list.test>\nDKIM-Signature: v=1; a=rsa-sha256; d=x; b=abc\n",
      );
      const raw = await waitReceived(at("jan"), subject);
      expect(header(raw, "From")).toMatch(new RegExp(`^=\\?UTF-8\\?Q\\?Lista_otwarta_.*\\?= <${at("otwarta")}>$`));
      expect((await simpleParser(raw)).from?.value[0]).toEqual({ name: "Lista otwarta żółć", address: at("otwarta") });
      expect(header(raw, "Reply-To")).toBe(`<${at("otwarta")}>`);
      expect(header(raw, "X-Original-From")).toBe(`Nadawca <${at("obcy")}>`);
      expect(header(raw, "List-Id")).toBe(`${header(raw, "From")!.replace(/<.*>$/, "")}<otwarta.${A}>`);
      expect(header(raw, "List-Post")).toBe(`<mailto:${at("otwarta")}>`);
      expect(header(raw, "List-Help")).toBe(`<${publicUrl()}/lists/otwarta%40${A}>`);
      // RFC 8058: the copy's own one-click link (the next describe block checks what it does).
      expect(header(raw, "List-Unsubscribe")).toMatch(
        new RegExp(`^<mailto:${at("otwarta")}\\?subject=unsubscribe>, <${publicUrl()}/unsubscribe/[\\w.-]+>$`),
      );
      expect(header(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      expect(raw.match(/^List-Unsubscribe:/gim)).toHaveLength(1);
      expect(header(raw, "Precedence")).toBe("list");
      // No subscription by mail on this list (autosubscribe_enabled 0): none offered; "domyslna" takes them.
      expect(header(raw, "List-Subscribe")).toBeUndefined();
      const offered = unique("list-subscribe");
      await post(at("obcy"), "domyslna", offered);
      expect(header(await waitReceived(at("jan"), offered), "List-Subscribe")).toBe(
        `<mailto:${at("domyslna")}?subject=subscribe>`,
      );
      expect(header(raw, "Return-Path")).toBe(`<${await verpOf("otwarta", at("jan"))}>`);
      expect(header(raw, "Return-Path")).toMatch(new RegExp(`^<otwarta-bounces\\+[a-z2-7]{16}=jan=${A}@${A}>$`));
      // The poster's signature is gone; the list's own, with its domain's key, covers the one-click headers (RFC 8058
      // §4) and verifies as a receiving provider would check it, over DNS.
      const signatures = raw.match(/^DKIM-Signature:.*(\r?\n[ \t].*)*/gim) ?? [];
      expect(signatures).toHaveLength(1);
      expect(signatures[0]).toMatch(new RegExp(`\\bd=${A.replace(".", "\\.")};`));
      expect(signatures[0]!.replace(/\s+/g, "")).toMatch(/h=[^;]*list-unsubscribe:list-unsubscribe-post/);
      const record = dkimRecord(A, (await currentDkimKey(db, (await domain()).id))!);
      writeDnsRecords(l.dnsRecords, { ...readDnsRecords(l.dnsRecords), [record.name]: { TXT: [record.value] } });
      const { results } = await dkimVerify(Buffer.from(raw), { resolver: sandboxTxtResolver(l) });
      expect(results.map((r) => [r.status.result, r.signingDomain])).toEqual([["pass", A]]);
      expect(raw.match(/^List-Id:/gim)).toHaveLength(1);
      expect(header(raw, "Subject")).toBe(subject);
    });

    it.each([
      ["printable ASCII", `<security@c.test> "`, `"<security@c.test> \\"" <%s>`],
      ["non-ASCII", `Zespół <security@c.test> "`, `=?UTF-8?Q?`],
    ])(
      "a description (%s) with quotes and angle brackets: From and List-Id parse to the list's own address in Python's email and mailparser",
      async (_kind, description, start) => {
        const name = _kind === "non-ASCII" ? "podrobka2" : "podrobka";
        await createMailingList(db, await domain(), name, { description, accounts: [at("jan")] });
        const subject = unique(`forged-description-${name}`);
        await post(at("obcy"), name, subject);
        const raw = await waitReceived(at("jan"), subject);
        const parsed = await simpleParser(raw);
        expect(parsed.from?.value).toEqual([{ name: description, address: at(name) }]);
        const file = path.join(root, `${name}.eml`);
        fs.writeFileSync(file, raw);
        // Python's parser both ways: the modern header registry and the classic parseaddr mail readers use.
        const py = run("python3", [
          "-c",
          `import email, email.policy, email.utils, json, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
a = m["From"].addresses
c = email.message_from_bytes(raw)
print(json.dumps({"modern": [[x.display_name, x.addr_spec] for x in a],
  "classic": email.utils.getaddresses(c.get_all("From")),
  "list_id": email.utils.parseaddr(c["List-Id"]),
  "list_id_name": str(email.header.make_header(email.header.decode_header(c["List-Id"])))}))`,
          file,
        ]);
        const got = JSON.parse(py) as {
          modern: string[][];
          classic: string[][];
          list_id: string[];
          list_id_name: string;
        };
        expect(got.modern).toEqual([[description, at(name)]]);
        expect(got.classic.map((x) => x[1])).toEqual([at(name)]);
        expect(got.list_id[1]).toBe(`${name}.${A}`);
        expect(got.list_id_name.endsWith(`<${name}.${A}>`)).toBe(true);
        // mailparser keeps every List-* header under "list": the id is the list's, and no address came out of the phrase.
        const list = parsed.headers.get("list") as { id?: { id?: string; mail?: string } } | undefined;
        expect(list?.id?.id).toBe(`${name}.${A}`);
        expect(list?.id?.mail).toBeUndefined();
        // How it is written: one quoted-string, or encoded words covering the whole name.
        expect(header(raw, "From")!.startsWith(start.replace("%s", at(name)))).toBe(true);
      },
    );

    it.each([
      ["odpowiedz1", 1, `Nadawca <${at("obcy")}>`],
      ["odpowiedz2", 2, `<${at("marta")}>`],
      ["otwarta", 0, `<${at("otwarta")}>`],
    ])("replyto_mode on %s (%i): Reply-To is %s", async (list, _mode, expected) => {
      const subject = unique(`replyto-${list}`);
      await post(at("obcy"), list, subject);
      const raw = await waitReceived(at("ewa"), subject);
      expect(header(raw, "Reply-To")).toBe(expected);
    });

    it("the inbound scan's headers: a copy for a subscriber here keeps the post's score, one leaving over SMTP has none, neither a poster header", async () => {
      await createMailingList(db, await domain(), "skan", { accounts: [at("jan"), "daleko@elsewhere.test"] });
      const subject = unique("scan-headers");
      // Logged in as its From: the post arrives with both poster headers (X-Mailadmin-Poster, -Sender-Verified).
      await postAs(at("ewa"), "skan", subject);
      const here = await waitReceived(at("jan"), subject);
      const [file] = await waitFor("the copy leaving over SMTP", () => {
        const found = outboundWith(subject);
        return found.length ? found : undefined;
      });
      const away = fs.readFileSync(file!, "utf8");
      // The dedicated LISTS_SMTP listener (no milter, as the sandbox's): the score is the post's, once; Sieve files by it.
      expect(here.match(new RegExp(`^${SCORE_HEADER}: \\d+\\r?$`, "gim"))).toHaveLength(1);
      expect(here.match(new RegExp(`^${SCORE_HEADER_READABLE}: `, "gim"))).toHaveLength(1);
      expect(here).toMatch(/^X-Spamd-Result: /im);
      for (const name of [POSTER_HEADER, SENDER_VERIFIED_HEADER]) expect(header(here, name)).toBeUndefined();
      // Postfix's smtp_header_checks remove what this host's Rspamd added from mail leaving over SMTP.
      for (const name of INTERNAL_HEADERS) expect(header(away, name)).toBeUndefined();
      expect(away).not.toMatch(/^X-Mailadmin-/im);
      expect(header(away, "List-Id")).toBe(`<skan.${A}>`);
    });
  });

  describe("one-click unsubscription (RFC 8058)", () => {
    /** The https link of a copy's List-Unsubscribe. */
    const oneClickLink = (raw: string) =>
      /<(http:\/\/[^>]+\/unsubscribe\/[^>]+)>/.exec(header(raw, "List-Unsubscribe") ?? "")?.[1] ?? "";
    const oneClick = (link: string, body: BodyInit = new URLSearchParams({ "List-Unsubscribe": "One-Click" })) =>
      fetch(link, { method: "POST", body });

    it("every copy has its own link; a GET changes nothing; a POST of List-Unsubscribe=One-Click unsubscribes exactly that subscriber", async () => {
      const subs = [at("jan"), at("ewa"), at("zofia"), at("karol")];
      await createMailingList(db, await domain(), "jednoklik", { accounts: subs });
      const subject = unique("one-click");
      await post(at("obcy"), "jednoklik", subject);
      const links = new Map<string, string>();
      for (const who of subs) {
        const raw = await waitReceived(who, subject);
        expect(header(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
        links.set(who, oneClickLink(raw));
      }
      expect(new Set(links.values()).size).toBe(subs.length);
      for (const link of links.values()) expect(link.startsWith(`${publicUrl()}/unsubscribe/`)).toBe(true);

      // A link scanner (or the subscriber's browser) opening the link: the confirmation page, nobody unsubscribed.
      const page = await fetch(links.get(at("jan"))!);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Potwierdź wypisanie");
      expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
      expect((await members("jednoklik")).accounts).toEqual(subs);

      // A POST without the one-click field does nothing.
      expect((await fetch(links.get(at("ewa"))!, { method: "POST" })).status).toBe(400);
      expect((await members("jednoklik")).accounts).toEqual(subs);

      // The one click (urlencoded, as mail programs send it): at once, only ewa.
      const done = await oneClick(links.get(at("ewa"))!);
      expect(done.status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("zofia"), at("karol")]);
      await waitReceived(at("ewa"), `Wypisano z listy ${at("jednoklik")}`);
      // multipart/form-data, RFC 8058's SHOULD: the same.
      const form = new FormData();
      form.set("List-Unsubscribe", "One-Click");
      expect((await oneClick(links.get(at("zofia"))!, form)).status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
      // Again: still done, nothing else changes.
      expect((await oneClick(links.get(at("ewa"))!)).status).toBe(200);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
    });

    it("a forged token, or one of another list or address, is refused", async () => {
      await createMailingList(db, await domain(), "inna-lista", { accounts: [at("jan")] });
      const subject = unique("forged");
      await post(at("obcy"), "jednoklik", subject);
      const link = oneClickLink(await waitReceived(at("jan"), subject));
      const [id, address, mac] = link.split("/").pop()!.split(".");
      const other = String((await getListOrThrow(db, await domain(), "inna-lista")).id);
      const forged = [
        `${other}.${address}.${mac}`, // the same signature for another list
        `${id}.${Buffer.from(at("karol")).toString("base64url")}.${mac}`, // ... for another subscriber
        `${id}.${address}.${mac!.slice(0, -2)}${mac!.endsWith("AA") ? "BB" : "AA"}`, // a changed signature
        `${id}.${address}`,
      ];
      for (const token of forged) {
        expect((await fetch(`${publicUrl()}/unsubscribe/${token}`)).status).toBe(410);
        expect((await oneClick(`${publicUrl()}/unsubscribe/${token}`)).status).toBe(410);
      }
      expect((await members("inna-lista")).accounts).toEqual([at("jan")]);
      expect((await members("jednoklik")).accounts).toEqual([at("jan"), at("karol")]);
      // A malformed escape is no page (it answered 500 from decodeURIComponent); every page says nosniff.
      for (const path of ["/unsubscribe/%E0%A4%A", "/moderate/%ZZ"]) {
        const res = await fetch(`${publicUrl()}${path}`);
        expect(res.status, path).toBe(404);
        expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      }
    });
  });
}
