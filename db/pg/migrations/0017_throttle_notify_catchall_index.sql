-- Changes to login_throttle are announced like those to accounts and domains, so each process can keep the throttle
-- rows of a sign-in it read until the next announcement (lib/server/caller/login-throttle.ts).
CREATE TRIGGER login_throttle_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON login_throttle
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
-- mail_alias_map's catchall rows are keyed '@' || name: without this index every alias lookup (Postfix's
-- virtual_alias_maps, an address and then its @domain) read the whole domains table twice.
CREATE INDEX domains_catchall_key ON domains (('@' || name));
