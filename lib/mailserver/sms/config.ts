import "server-only";
// The provider's side of SMS notifications: the operator table (code -> e-mail-to-SMS address, SMS length,
// number prefixes for auto-detection), the HTTP gateway's request format, retries and the rate limit. Built-in
// defaults below; a JSON file (SMS_CONFIG, or `mailserver events --sms-config <file>`) overrides any part.
// docs/mail-server.md ("SMS notifications") documents every key.
import fs from "node:fs";
import { z } from "zod";

const httpGateway = z.object({
  /** {msisdn} {number} {login} {password} {text} are replaced (URL-encoded in the URL). */
  url: z.string().url(),
  method: z.enum(["GET", "POST"]).default("POST"),
  /** How `fields` travel: in the query string, as a form body, or as a JSON body. */
  format: z.enum(["query", "form", "json"]).default("form"),
  fields: z.record(z.string(), z.string()).default({}),
  headers: z.record(z.string(), z.string()).default({}),
  /** Text the answer's body must contain to count as sent (besides a 2xx status); "" accepts any 2xx. */
  successMatch: z.string().default(""),
  timeoutMs: z.number().int().min(100).default(10_000),
});
export type HttpGatewayConfig = z.infer<typeof httpGateway>;

const operator = z.object({
  name: z.string(),
  /** The operator's e-mail-to-SMS address; {msisdn} (country code + number) and {number} (national) are replaced. */
  email: z.string().default(""),
  /** Characters per SMS this operator's gateway accepts. */
  maxLength: z.number().int().min(20).max(1000).default(160),
  /** National number prefixes originally assigned to the operator (auto-detection for sms_operator 0). */
  prefixes: z.array(z.string()).default([]),
  /** The operator's own HTTP gateway (sms_send_to 0); the top-level `http` when absent. */
  http: httpGateway.optional(),
});
export type OperatorConfig = z.infer<typeof operator>;

export const smsConfigSchema = z.object({
  countryCode: z
    .string()
    .regex(/^\d{1,3}$/)
    .default("48"),
  nationalLength: z.number().int().min(4).max(14).default(9),
  operators: z.record(z.string().regex(/^(11|12|13|21|22|23|31|32|33|51)$/), operator).default({}),
  http: httpGateway.optional(),
  /** Characters per SMS when no operator is known (an e-mail address as the number). */
  maxLength: z.number().int().min(20).max(1000).default(160),
  /** Sender of the e-mail notifications; {domain} is the account's domain. */
  from: z.string().default("powiadomienia-sms@{domain}"),
  /** Attempts per notification, and the wait before each retry (the last value repeats). */
  maxAttempts: z.number().int().min(1).max(50).default(5),
  retryDelaysSeconds: z.array(z.number().min(0)).min(1).default([60, 300, 900, 3600]),
  /** New-mail notifications per account and hour; more are recorded as skipped (0: no limit). */
  rateLimitPerHour: z.number().int().min(0).default(10),
});
export type SmsConfig = z.infer<typeof smsConfigSchema>;

// Polish networks by the brands the specification's codes stand for (11-13 Plus, 21-23 T-Mobile/Era,
// 31-33 Orange/Idea, 51 Play), with the gateways' historical addresses and the prefixes originally assigned. Most
// operators have closed or changed their e-mail gateways (the nazwa.pl note): a provider sets its own in
// the file. Number portability makes prefix detection a guess; sms_operator set explicitly always wins.
const PLUS = [
  "601",
  "603",
  "605",
  "607",
  "609",
  "661",
  "663",
  "665",
  "667",
  "669",
  "691",
  "693",
  "695",
  "697",
  "699",
  "781",
  "783",
  "785",
  "787",
  "789",
];
const ERA = [
  "600",
  "602",
  "604",
  "606",
  "608",
  "660",
  "662",
  "664",
  "666",
  "668",
  "692",
  "694",
  "696",
  "698",
  "880",
  "882",
  "884",
  "886",
  "888",
];
const ORANGE = [
  "500",
  "501",
  "502",
  "503",
  "504",
  "505",
  "506",
  "507",
  "508",
  "509",
  "510",
  "511",
  "512",
  "515",
  "516",
  "517",
  "518",
  "519",
];
const PLAY = [
  "530",
  "531",
  "532",
  "533",
  "534",
  "535",
  "536",
  "537",
  "538",
  "539",
  "570",
  "571",
  "572",
  "573",
  "574",
  "575",
  "576",
  "577",
  "578",
  "579",
  "790",
  "791",
  "792",
  "793",
  "794",
  "795",
  "796",
  "797",
  "798",
  "799",
];

export const DEFAULT_OPERATORS: Record<string, z.input<typeof operator>> = {
  "11": { name: "Plus", email: "{msisdn}@text.plusgsm.pl", prefixes: PLUS },
  "12": { name: "Plus (Sami Swoi)", email: "{msisdn}@text.plusgsm.pl" },
  "13": { name: "Plus (Simplus)", email: "{msisdn}@text.plusgsm.pl" },
  "21": { name: "T-Mobile (Era)", email: "{msisdn}@sms.era.pl", prefixes: ERA },
  "22": { name: "T-Mobile (Tak Tak)", email: "{msisdn}@sms.era.pl" },
  "23": { name: "T-Mobile (Heyah)", email: "{msisdn}@sms.era.pl" },
  "31": { name: "Orange (Idea)", email: "{msisdn}@sms.orange.pl", prefixes: ORANGE },
  "32": { name: "Orange (POP)", email: "{msisdn}@sms.orange.pl" },
  "33": { name: "Orange (nju)", email: "{msisdn}@sms.orange.pl" },
  "51": { name: "Play", email: "{msisdn}@sms.play.pl", prefixes: PLAY, maxLength: 160 },
};

/** The defaults with `overrides` applied (operators merged code by code, the rest replaced key by key). */
export function smsConfig(overrides: Record<string, unknown> = {}): SmsConfig {
  const { operators: ops = {}, ...rest } = overrides as { operators?: Record<string, Record<string, unknown>> };
  const operators: Record<string, unknown> = {};
  for (const code of new Set([...Object.keys(DEFAULT_OPERATORS), ...Object.keys(ops)])) {
    operators[code] = { ...DEFAULT_OPERATORS[code], ...ops[code] };
  }
  return smsConfigSchema.parse({ ...rest, operators });
}

export function loadSmsConfig(file: string | undefined): SmsConfig {
  if (!file) return smsConfig();
  return smsConfig(JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>);
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const isEmailTarget = (value: string) => EMAIL.test(value);

/** The national number and the international one without "+", or undefined when it is no phone number. */
export function normalizeNumber(config: SmsConfig, value: string): { national: string; msisdn: string } | undefined {
  const digits = value.replace(/[\s\-()./]/g, "");
  if (!/^\+?\d{6,15}$/.test(digits)) return undefined;
  let n = digits.replace(/^\+/, "").replace(/^00/, "");
  if (n.startsWith(config.countryCode) && n.length === config.countryCode.length + config.nationalLength) {
    n = n.slice(config.countryCode.length);
  } else if (digits.startsWith("+") || digits.startsWith("00")) {
    return { national: n, msisdn: n }; // a foreign number: kept whole
  }
  return { national: n, msisdn: `${config.countryCode}${n}` };
}

/** sms_operator_N, or for 0 the operator whose prefix the national number starts with (longest match). */
export function operatorFor(
  config: SmsConfig,
  code: number,
  national: string,
): { code: string; op: OperatorConfig } | undefined {
  if (code !== 0) {
    const op = config.operators[String(code)];
    return op ? { code: String(code), op } : undefined;
  }
  let best: { code: string; op: OperatorConfig; len: number } | undefined;
  for (const [c, op] of Object.entries(config.operators)) {
    for (const p of op.prefixes)
      if (national.startsWith(p) && (!best || p.length > best.len)) best = { code: c, op, len: p.length };
  }
  return best && { code: best.code, op: best.op };
}

export const fill = (template: string, values: Record<string, string>, encode = (s: string) => s) =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? encode(values[k]!) : m));

/** Where a notification to one number goes, or why it cannot go (`provider`: the SMS configuration lacks a gateway). */
export type SmsRoute =
  { channel: "email" | "http"; target: string; maxLength: number } | { error: string; provider: boolean };

/**
 * The one rule for an account's number under `config` (sms_send_to 1: the operator's e-mail gateway; 0: its HTTP
 * gateway, else the provider's): what the queue sends a notification by, and what `mailserver check` judges.
 */
export function smsRoute(config: SmsConfig, smsSendTo: number, number: string, operatorCode: number): SmsRoute {
  if (isEmailTarget(number)) return { channel: "email", target: number, maxLength: config.maxLength };
  const n = normalizeNumber(config, number);
  if (!n) return { error: `${number} is neither a phone number nor an e-mail address`, provider: false };
  const operator = operatorFor(config, operatorCode, n.national);
  const maxLength = operator?.op.maxLength ?? config.maxLength;
  if (smsSendTo === 1) {
    if (!operator) return { error: `no operator known for ${number} (set sms_operator)`, provider: false };
    if (!operator.op.email)
      return {
        error: `operator ${operator.code} (${operator.op.name}) has no e-mail-to-SMS gateway configured`,
        provider: true,
      };
    return { channel: "email", target: fill(operator.op.email, n), maxLength };
  }
  if (!(operator?.op.http ?? config.http))
    return { error: "no HTTP SMS gateway configured by the provider", provider: true };
  return { channel: "http", target: number, maxLength };
}
