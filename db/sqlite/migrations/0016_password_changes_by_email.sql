-- The policy service asks, at each RCPT and end of DATA of a signed-in submission session, whether the login's
-- password changed after the session signed in (docs/mail-server.md, "Open sessions"): one indexed look-up instead of
-- a scan of the day's changes.
CREATE INDEX `mail_password_changes_email` ON `mail_password_changes` (`email`,`changed_at`);
