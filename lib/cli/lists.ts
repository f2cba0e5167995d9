import "server-only";
// `lists serve`: the list service as its own long-running process (systemd unit in docs/deploy.md).
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { CLI, UsageError, stringOption, type Command } from "./args";
import { environment } from "@/lib/config.mjs";
import { LIST_SERVICE_DEFAULTS } from "@/lib/lists/options";
import { startListService } from "@/lib/lists/service";

/** The list service's settings from the environment (docs/lists.md); options of `lists serve` override them. */
const settingsSchema = z.object({
  PUBLIC_URL: z.string().optional(),
  LISTS_LMTP: z.string().default(`${LIST_SERVICE_DEFAULTS.lmtp.host}:${LIST_SERVICE_DEFAULTS.lmtp.port}`),
  LISTS_HTTP: z.string().default(`${LIST_SERVICE_DEFAULTS.http.host}:${LIST_SERVICE_DEFAULTS.http.port}`),
  LISTS_SENDMAIL: z.string().default(LIST_SERVICE_DEFAULTS.sendmail),
  LISTS_SMTP: z.string().default(`${LIST_SERVICE_DEFAULTS.smtp.host}:${LIST_SERVICE_DEFAULTS.smtp.port}`),
  LISTS_SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(LIST_SERVICE_DEFAULTS.smtpConnections),
  LISTS_POSTFIX_CONFIG: z.string().optional(),
  LISTS_SPOOL_DIR: z.string().default(path.join(os.tmpdir(), "mailadmin-lists")),
  LISTS_HELD_DAYS: z.coerce.number().int().min(1).default(LIST_SERVICE_DEFAULTS.heldDays),
  LISTS_TOKEN_HOURS: z.coerce.number().int().min(1).default(LIST_SERVICE_DEFAULTS.tokenHours),
  LISTS_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(LIST_SERVICE_DEFAULTS.requestsPerHour),
  LISTS_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(LIST_SERVICE_DEFAULTS.batchSize),
});

export function hostPort(value: string, what: string): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/.exec(value);
  if (!m || Number(m[2]) > 65535) throw new UsageError(`${what}: expected host:port, got ${value}`);
  return { host: m[1]!.replace(/^\[|\]$/g, "") || "127.0.0.1", port: Number(m[2]) };
}

export const LIST_COMMANDS: Command[] = [
  {
    name: "lists serve",
    summary:
      "Runs the list service: LMTP for list addresses (Postfix's transport), the confirmation pages; SIGTERM stops it.",
    notes:
      "Postfix hands mail for list addresses to the LMTP listener (`mailserver config --lists-lmtp`); copies go back\n" +
      "over SMTP (one per subscriber), the service's own notices through Postfix's sendmail. Settings come from the\n" +
      "environment (PUBLIC_URL, LISTS_LMTP, LISTS_HTTP, LISTS_SMTP, LISTS_SMTP_CONNECTIONS, LISTS_SENDMAIL,\n" +
      "LISTS_POSTFIX_CONFIG, LISTS_SPOOL_DIR, LISTS_HELD_DAYS, LISTS_TOKEN_HOURS, LISTS_REQUESTS_PER_HOUR, LISTS_BATCH_SIZE;\n" +
      "docs/lists.md); the options below override them.",
    example: `PUBLIC_URL=https://lists.example.org ${CLI} lists serve`,
    options: {
      lmtp: {
        type: "string",
        value: "host:port|/path",
        help: "LMTP listener, TCP or a unix socket made 0660 (default LISTS_LMTP or 127.0.0.1:10024)",
      },
      http: { type: "string", value: "host:port", help: "pages listener (default LISTS_HTTP or 127.0.0.1:10025)" },
      smtp: {
        type: "string",
        value: "host:port",
        help: "Postfix's SMTP listener for the copies (default LISTS_SMTP or 127.0.0.1:25)",
      },
      "public-url": {
        type: "string",
        value: "<url>",
        help: "how users reach the pages (default PUBLIC_URL, else http://<http>)",
      },
      "postfix-config": {
        type: "string",
        value: "<dir>",
        path: "file",
        help: "Postfix's configuration folder, for sendmail -C (default LISTS_POSTFIX_CONFIG)",
      },
    },
    async run(ctx, { values }) {
      const s = settingsSchema.parse(environment());
      const lmtpValue = stringOption(values, "lmtp") ?? s.LISTS_LMTP;
      // An absolute path is a unix socket (docs/lists.md, Settings); anything else host:port.
      const lmtp = lmtpValue.startsWith("/") ? { path: lmtpValue } : hostPort(lmtpValue, "--lmtp");
      const http = hostPort(stringOption(values, "http") ?? s.LISTS_HTTP, "--http");
      const publicUrl = (
        stringOption(values, "public-url") ??
        s.PUBLIC_URL ??
        `http://${http.host}:${http.port}`
      ).replace(/\/+$/, "");
      const service = await startListService({
        db: ctx.db(),
        lmtp,
        http,
        publicUrl,
        sendmail: s.LISTS_SENDMAIL,
        smtp: hostPort(stringOption(values, "smtp") ?? s.LISTS_SMTP, "--smtp"),
        smtpConnections: s.LISTS_SMTP_CONNECTIONS,
        postfixConfig: stringOption(values, "postfix-config") ?? s.LISTS_POSTFIX_CONFIG,
        spoolDir: s.LISTS_SPOOL_DIR,
        batchSize: s.LISTS_BATCH_SIZE,
        heldDays: s.LISTS_HELD_DAYS,
        tokenHours: s.LISTS_TOKEN_HOURS,
        requestsPerHour: s.LISTS_REQUESTS_PER_HOUR,
        pollMs: LIST_SERVICE_DEFAULTS.pollMs,
        log: (line) => console.log(line),
      });
      console.log(
        `list service: LMTP ${"path" in lmtp ? lmtp.path : `${lmtp.host}:${service.lmtpPort}`}, pages ${http.host}:${service.httpPort} (${publicUrl})`,
      );
      await new Promise<void>((resolve) => {
        process.once("SIGTERM", resolve);
        process.once("SIGINT", resolve);
      });
      await service.close();
      return "list service stopped";
    },
  },
];
