-- A DKIM rotation stages the new key (signing 0): it is published in DNS first and signs only once
-- `domain dkim activate` has seen it there, so no message is signed with a selector DNS does not hold yet.
-- Every existing key keeps signing as before.
ALTER TABLE "dkim_keys" ADD COLUMN "signing" integer DEFAULT 1 NOT NULL;
