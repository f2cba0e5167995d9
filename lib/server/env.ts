import "server-only";
// The service's settings, typed and validated once at first use, over the environment as lib/config.mjs (the one
// reader of process.env) gives it.
import os from "node:os";
import { z } from "zod";
import { dnsResolvers, environment } from "@/lib/config.mjs";

const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "a host name");
const port = z.coerce.number().int().min(0).max(65535);

const envSchema = z.object({
  ALLOWED_CLIENT_IPS: z.string().optional(),
  // Reverse proxies (IPs and CIDRs) whose X-Forwarded-For names the client for throttling, sessions and
  // last_auth_ip; empty by default (the TCP peer is the client). Never used by the /api/v1 client address rule.
  TRUSTED_PROXIES: z.string().optional(),
  // The server-wide values of the three anti-spam mechanisms (returned as spam_*_default of a domain).
  SPAM_RBL_DEFAULT: z.enum(["0", "1"]).default("1"),
  SPAM_SPF_DEFAULT: z.enum(["0", "1"]).default("1"),
  SPAM_GREYLIST_DEFAULT: z.enum(["0", "1"]).default("1"),
  AUTH_CACHE_SIZE: z.coerce.number().int().min(0).default(10000),
  AUTH_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  AUTH_LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  // Failed logins from one client address, over all account addresses, before that address is locked.
  AUTH_ADDRESS_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  // scrypt cost; tests and synthetic benchmark data may lower it, production keeps the default.
  SCRYPT_COST: z.coerce.number().int().min(1024).default(16384),
  // Threads hashing passwords per process, at the lowest CPU priority (lib/server/caller/password.ts): a flood of sign-ins
  // takes no more cores than this.
  SCRYPT_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // New passwords hashed at once per process (accounts created or imported, passwords changed), at normal priority: an
  // import takes no more cores than this from mail lookups and other requests.
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // Days the audit log keeps an entry; the daily housekeeping deletes older ones.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  // The key that encrypts TOTP secrets at rest: 32 bytes as 64 hex digits or base64 (lib/server/caller/totp.ts).
  TOTP_ENCRYPTION_KEY: z.string().optional(),
  // The operator's host names and ports, which every hosted domain's DNS records and the mail clients' set-up
  // documents name (docs/onboarding.md). MAIL_HOST receives the domains' mail (their MX); the client hosts default to it.
  MAIL_HOST: hostName.default(os.hostname().toLowerCase()),
  IMAP_HOST: hostName.optional(),
  IMAP_PORT: port.default(993),
  // 0: POP3 is not offered to clients.
  POP3_HOST: hostName.optional(),
  POP3_PORT: port.default(995),
  SUBMISSION_HOST: hostName.optional(),
  SUBMISSION_PORT: port.default(465),
  // The web host that answers autoconfig.<domain>, autodiscover.<domain> and mta-sts.<domain> (this panel's).
  WEB_HOST: hostName.optional(),
  // The records suggested for every domain; {domain} is replaced by the domain's name.
  SPF_RECORD: z.string().startsWith("v=spf1").default("v=spf1 mx -all"),
  DMARC_RECORD: z.string().startsWith("v=DMARC1").default("v=DMARC1; p=quarantine; rua=mailto:postmaster@{domain}"),
  // MTA-STS (RFC 8461): off, or the policy mode published for every domain; TLS-RPT (RFC 8460): where reports go.
  MTA_STS_MODE: z.enum(["off", "testing", "enforce"]).default("off"),
  TLSRPT_RUA: z
    .string()
    .regex(/^(mailto:[^\s;,]+@[^\s;,]+|https:\/\/\S+)$/, "mailto:<address> or https://<url>")
    .optional(),
});

export type Env = z.infer<typeof envSchema>;
let cached: Env | undefined;

export function env(): Env {
  cached ??= envSchema.parse(environment());
  return cached;
}

export { dnsResolvers };
