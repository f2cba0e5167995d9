-- The greylist's expiry (lib/mailserver/policy/greylist.ts) reads only the rows it deletes: passed triplets by their
-- last message, pending ones by their first attempt, which is their last_seen too (only a pass moves it). With the
-- index on first_seen alone it read the whole table, every 1,000th recipient check, while that recipient's SMTP
-- answer waited: 270-380 ms at 2,000,000 rows, and a provider's MX sees tens of millions of triplets in 35 days.
-- (Built while the table is locked for writes: on a large greylist, run `db migrate` when mail is quiet.)
CREATE INDEX "greylist_expiry" ON "greylist" USING btree ("passed", "last_seen");
--> statement-breakpoint
DROP INDEX "greylist_first_seen";
