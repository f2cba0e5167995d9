-- Who may send as an address (Postfix's smtpd_sender_login_maps with reject_authenticated_sender_login_mismatch, and
-- the header From of a signed-in submission, docs/mail-server.md): an account its own address, and the account an
-- alias leads to that alias. Before, a signed-in user sent as any address, hosted or not, and Rspamd signed it with
-- the From domain's DKIM key.
CREATE VIEW mail_sender_logins AS
  SELECT email AS sender, email AS login FROM accounts
  UNION ALL
  SELECT al.email, ac.email FROM aliases al JOIN accounts ac ON ac.email = al.target;
--> statement-breakpoint
-- Readable by the roles that read the other mail views (the mail reader, whatever its name).
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT DISTINCT grantee FROM information_schema.role_table_grants
           WHERE table_schema = 'public' AND table_name = 'mail_alias_map' AND privilege_type = 'SELECT'
             AND grantee <> current_user
  LOOP
    EXECUTE format('GRANT SELECT ON mail_sender_logins TO %I', r.grantee);
  END LOOP;
END $$;
