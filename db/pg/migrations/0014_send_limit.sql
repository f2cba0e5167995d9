-- A per-account sending limit: a stolen password used to send spam through the submission port sent thousands of
-- messages an hour until the hosts' addresses were on blocklists. The policy service now counts each recipient a
-- signed-in sender is accepted for, per minute, in send_counts (shared by every mail host), and answers 450 4.7.1
-- past the domain's send_limit in the last 60 minutes (lib/mailserver/policy/send-limit.ts). Every domain, existing
-- or new, starts at 1,000 recipients per hour (0: no limit; `domain set-limits --send-limit`).
ALTER TABLE "domains" ADD COLUMN "send_limit" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
CREATE TABLE "send_counts" (
	"login" text NOT NULL,
	"minute" integer NOT NULL,
	"recipients" integer NOT NULL,
	CONSTRAINT "send_counts_login_minute_pk" PRIMARY KEY("login","minute")
);
--> statement-breakpoint
CREATE INDEX "send_counts_minute" ON "send_counts" USING btree ("minute");
