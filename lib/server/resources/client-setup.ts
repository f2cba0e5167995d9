import "server-only";
// The documents mail clients set themselves up from, describing the operator's IMAP, POP3 and submission hosts
// (lib/server/env.ts, through mailHosts): Thunderbird's autoconfig (config-v1.1.xml), Outlook's POX autodiscover,
// and an Apple configuration profile for one account (unsigned, no password). docs/onboarding.md.
import crypto from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import type { Db } from "@/db/client";
import { findDomain } from "./domains";
import { mailHosts, type MailService } from "./dns-records";

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** The hosted domain of an address or a host name, or undefined (the answer is then 404, so the client moves on). */
export async function hostedDomain(db: Db, name: string | null | undefined): Promise<string | undefined> {
  const candidate = (name ?? "").trim().toLowerCase().replace(/\.$/, "");
  if (!candidate || candidate.length > 253) return undefined;
  return (await findDomain(db, candidate))?.name;
}

/** The domain of `user@domain`, lower case ("" when it is not an address). */
export const addressDomain = (address: string | null | undefined) => {
  const m = /^[^@\s]+@([^@\s]+)$/.exec((address ?? "").trim());
  return m ? m[1]!.toLowerCase() : "";
};

/**
 * Which domain an autoconfig request is about: the address's domain when the client sends one, else the host it
 * asked (`autoconfig.<domain>`, or `<domain>` itself for the .well-known form).
 */
export function autoconfigDomain(host: string | null, emailAddress: string | null): string {
  const fromAddress = addressDomain(emailAddress);
  if (fromAddress) return fromAddress;
  const h = (host ?? "").toLowerCase().replace(/:\d+$/, "");
  return h.startsWith("autoconfig.") ? h.slice("autoconfig.".length) : h;
}

const socketType = (s: MailService) => (s.tls === "ssl" ? "SSL" : "STARTTLS");

/** Thunderbird's autoconfig document (https://wiki.mozilla.org/Thunderbird:Autoconfiguration:ConfigFileFormat). */
export function autoconfigXml(domain: string): string {
  const h = mailHosts();
  const server = (tag: "incomingServer" | "outgoingServer", type: string, s: MailService) =>
    `    <${tag} type="${type}">
      <hostname>${escapeXml(s.host)}</hostname>
      <port>${s.port}</port>
      <socketType>${socketType(s)}</socketType>
      <authentication>password-cleartext</authentication>
      <username>%EMAILADDRESS%</username>
    </${tag}>
`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="${escapeXml(domain)}">
    <domain>${escapeXml(domain)}</domain>
    <displayName>${escapeXml(domain)}</displayName>
    <displayShortName>${escapeXml(domain)}</displayShortName>
${server("incomingServer", "imap", h.imap)}${h.pop3 ? server("incomingServer", "pop3", h.pop3) : ""}${server("outgoingServer", "smtp", h.submission)}  </emailProvider>
</clientConfig>
`;
}

const AUTODISCOVER_RESPONSE = "http://schemas.microsoft.com/exchange/autodiscover/responseschema/2006";
const OUTLOOK_RESPONSE = "http://schemas.microsoft.com/exchange/autodiscover/outlook/responseschema/2006a";

export type AutodiscoverAnswer = { status: number; xml: string };

function autodiscoverError(status: number, code: 600 | 601, message: string): AutodiscoverAnswer {
  return {
    status,
    xml: `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="${AUTODISCOVER_RESPONSE}">
  <Response>
    <Error Time="${new Date().toISOString().slice(11, 19)}" Id="${crypto.randomInt(1e9)}">
      <ErrorCode>${code}</ErrorCode>
      <Message>${message}</Message>
      <DebugData />
    </Error>
  </Response>
</Autodiscover>
`,
  };
}

/**
 * Outlook's POX autodiscover answer (MS-OXDSCLI) to the request body: the IMAP, POP3 and SMTP settings of the
 * address's account; 600 for a request that is not one, 601 for another response schema, 404 for a domain not
 * hosted here.
 */
export async function autodiscover(db: Db, requestXml: string): Promise<AutodiscoverAnswer> {
  let email = "";
  let schema = "";
  try {
    const parsed = new XMLParser({ removeNSPrefix: true, parseTagValue: false, processEntities: false }).parse(
      requestXml,
    ) as {
      Autodiscover?: { Request?: { EMailAddress?: unknown; AcceptableResponseSchema?: unknown } };
    };
    const request = parsed.Autodiscover?.Request;
    email = typeof request?.EMailAddress === "string" ? request.EMailAddress.trim() : "";
    schema = typeof request?.AcceptableResponseSchema === "string" ? request.AcceptableResponseSchema.trim() : "";
  } catch {
    // Not XML: answered as an invalid request below.
  }
  if (!addressDomain(email)) return autodiscoverError(400, 600, "Invalid Request");
  if (schema && schema !== OUTLOOK_RESPONSE)
    return autodiscoverError(200, 601, "Requested schema version not supported");
  const domain = await hostedDomain(db, addressDomain(email));
  if (!domain) return autodiscoverError(404, 600, "Invalid Request");
  const h = mailHosts();
  const address = escapeXml(email.toLowerCase());
  const protocol = (type: string, s: MailService) => `      <Protocol>
        <Type>${type}</Type>
        <Server>${escapeXml(s.host)}</Server>
        <Port>${s.port}</Port>
        <DomainRequired>off</DomainRequired>
        <LoginName>${address}</LoginName>
        <SPA>off</SPA>
        <SSL>on</SSL>
        <Encryption>${s.tls === "ssl" ? "SSL" : "TLS"}</Encryption>
        <AuthRequired>on</AuthRequired>${type === "SMTP" ? "\n        <UsePOPAuth>off</UsePOPAuth>\n        <SMTPLast>off</SMTPLast>" : ""}
      </Protocol>
`;
  return {
    status: 200,
    xml: `<?xml version="1.0" encoding="utf-8"?>
<Autodiscover xmlns="${AUTODISCOVER_RESPONSE}">
  <Response xmlns="${OUTLOOK_RESPONSE}">
    <User>
      <DisplayName>${address}</DisplayName>
    </User>
    <Account>
      <AccountType>email</AccountType>
      <Action>settings</Action>
${protocol("IMAP", h.imap)}${h.pop3 ? protocol("POP3", h.pop3) : ""}${protocol("SMTP", h.submission)}    </Account>
  </Response>
</Autodiscover>
`,
  };
}

/** A UUID derived from the text, so that downloading the profile again replaces the installed one. */
function stableUuid(text: string): string {
  const b = crypto.createHash("sha256").update(text).digest();
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase();
}

type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };

function plist(value: PlistValue, indent = ""): string {
  const inner = `${indent}  `;
  if (typeof value === "string") return `${indent}<string>${escapeXml(value)}</string>\n`;
  if (typeof value === "number") return `${indent}<integer>${value}</integer>\n`;
  if (typeof value === "boolean") return `${indent}<${value}/>\n`;
  if (Array.isArray(value)) return `${indent}<array>\n${value.map((v) => plist(v, inner)).join("")}${indent}</array>\n`;
  return `${indent}<dict>\n${Object.entries(value)
    .map(([k, v]) => `${inner}<key>${escapeXml(k)}</key>\n${plist(v, inner)}`)
    .join("")}${indent}</dict>\n`;
}

/**
 * An Apple configuration profile (com.apple.mail.managed) for the account: IMAP and submission with the account's
 * address as the user name; the device asks for the password when the profile is installed. Unsigned.
 */
export function mobileconfig(email: string): string {
  const h = mailHosts();
  const id = `${h.web.split(".").reverse().join(".")}.mail.${email.replace(/[^A-Za-z0-9.-]/g, "-")}`;
  const account: PlistValue = {
    PayloadType: "com.apple.mail.managed",
    PayloadVersion: 1,
    PayloadIdentifier: `${id}.account`,
    PayloadUUID: stableUuid(`${id}.account`),
    PayloadDisplayName: email,
    EmailAccountDescription: email,
    EmailAccountType: "EmailTypeIMAP",
    EmailAddress: email,
    IncomingMailServerAuthentication: "EmailAuthPassword",
    IncomingMailServerHostName: h.imap.host,
    IncomingMailServerPortNumber: h.imap.port,
    IncomingMailServerUseSSL: true,
    IncomingMailServerUsername: email,
    OutgoingMailServerAuthentication: "EmailAuthPassword",
    OutgoingMailServerHostName: h.submission.host,
    OutgoingMailServerPortNumber: h.submission.port,
    OutgoingMailServerUseSSL: true,
    OutgoingMailServerUsername: email,
    OutgoingPasswordSameAsIncomingPassword: true,
  };
  const profile: PlistValue = {
    PayloadContent: [account],
    PayloadDisplayName: `E-mail ${email}`,
    PayloadDescription: `IMAP ${h.imap.host}:${h.imap.port}, SMTP ${h.submission.host}:${h.submission.port}`,
    PayloadIdentifier: id,
    PayloadType: "Configuration",
    PayloadUUID: stableUuid(id),
    PayloadVersion: 1,
    PayloadRemovalDisallowed: false,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
${plist(profile)}</plist>
`;
}
