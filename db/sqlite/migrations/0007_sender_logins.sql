-- Who may send as an address (Postfix's smtpd_sender_login_maps with reject_authenticated_sender_login_mismatch, and
-- the header From of a signed-in submission, docs/mail-server.md): an account its own address, and the account an
-- alias leads to that alias. Before, a signed-in user sent as any address, hosted or not, and Rspamd signed it with
-- the From domain's DKIM key.
CREATE VIEW mail_sender_logins AS
  SELECT email AS sender, email AS login FROM accounts
  UNION ALL
  SELECT al.email, ac.email FROM aliases al JOIN accounts ac ON ac.email = al.target;
