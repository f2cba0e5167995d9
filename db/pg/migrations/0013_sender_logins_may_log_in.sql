-- A signed-in user sends as its addresses only while it may log in (docs/mail-server.md, "sending as an address"):
-- the logins of mail_passdb, the view Dovecot's passdb reads, so the rule (not blocked, not past expiration_date, a
-- mail password) is written once. Before, an SMTP submission session opened before its account was blocked or
-- expired went on sending: Postfix checks the password only at AUTH, and every later message of the session passed.
-- The same columns, so the view keeps its grants.
CREATE OR REPLACE VIEW mail_sender_logins AS
  SELECT p."user" AS sender, p."user" AS login FROM mail_passdb p
  UNION ALL
  SELECT al.email, p."user" FROM aliases al JOIN mail_passdb p ON p."user" = al.target;
