-- How many parts of a notification have gone out (lib/mailserver/sms/queue.ts): a notification of several SMS whose
-- gateway failed after the first ones was retried whole, and the recipient got those parts again at every retry.
ALTER TABLE `sms_queue` ADD `parts_sent` integer DEFAULT 0 NOT NULL;
