import "server-only";
// The one place that reads process.env for the service, validated once at first use.
import { z } from "zod";

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
  // Days the audit log keeps an entry; the daily housekeeping deletes older ones (issue 33).
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  // The key that encrypts TOTP secrets at rest: 32 bytes as 64 hex digits or base64 (lib/server/caller/totp.ts).
  TOTP_ENCRYPTION_KEY: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;
let cached: Env | undefined;

export function env(): Env {
  cached ??= envSchema.parse(process.env);
  return cached;
}
