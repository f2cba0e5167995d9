-- Postfix (pgsql_table) and Dovecot send each lookup as a plain query, which PostgreSQL plans anew every time; on a
-- replica with 1,000,000 accounts the planning of mail_sender_logins took about 0.4 ms against 0.05 ms to run it, and
-- a PL/pgSQL function keeps its query's plan for the connection (proxymap and Dovecot keep theirs open). So the
-- generated maps ask these functions (lib/mailserver/config.ts): each returns its view's rows for one key, and the
-- views stay the one place the rules are written. A migration that drops one of these views drops its function first.
CREATE FUNCTION mail_domains_for(k text) RETURNS SETOF mail_domains LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_domains v WHERE v.domain = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_mailboxes_for(k text) RETURNS SETOF mail_mailboxes LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_mailboxes v WHERE v.email = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_alias_map_for(k text) RETURNS SETOF mail_alias_map LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_alias_map v WHERE v.address = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_list_addresses_for(k text) RETURNS SETOF mail_list_addresses LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_list_addresses v WHERE v.domain = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_passdb_for(k text) RETURNS SETOF mail_passdb LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_passdb v WHERE v."user" = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_userdb_for(k text) RETURNS SETOF mail_userdb LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_userdb v WHERE v."user" = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_account_hosts_for(k text) RETURNS SETOF mail_account_hosts LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_account_hosts v WHERE v.email = k; END $$;
--> statement-breakpoint
CREATE FUNCTION mail_sender_logins_for(k text) RETURNS SETOF mail_sender_logins LANGUAGE plpgsql STABLE ROWS 1 AS $$
BEGIN RETURN QUERY SELECT v.* FROM mail_sender_logins v WHERE v.sender = k; END $$;
