-- A list's deep pages seek past remembered entries of a sort order (db/page-anchors.ts) while the domain's
-- search_version is unchanged, so it now also moves when an account's sort key changes outside its search key: the
-- capacity, the block, the dates, and the description's letter case (the search key is lowercased). The name is the
-- search key's own; last_auth_date and usage are the mail server's and keep OFFSET. Otherwise as in 0003.
CREATE OR REPLACE FUNCTION accounts_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('mailadmin.usage_write', true) = 'on' OR NOT EXISTS (SELECT 1 FROM new_rows) THEN
    RETURN NULL;
  END IF;
  UPDATE domains d SET capacity_sum = d.capacity_sum + c.delta
  FROM (SELECT domain_id, sum(capacity) AS delta
        FROM (SELECT domain_id, capacity FROM new_rows UNION ALL SELECT domain_id, -capacity FROM old_rows) x
        GROUP BY domain_id) c
  WHERE d.id = c.domain_id AND c.delta <> 0;
  -- Both domains of a row whose search key, sort keys or domain changed: the new versions not among the old, and the
  -- reverse.
  UPDATE domains d SET search_version = d.search_version + 1
  WHERE d.id IN (SELECT domain_id FROM (SELECT id, domain_id, search_key, description, capacity, blocked, creation_date, expiration_date FROM new_rows
                                        EXCEPT SELECT id, domain_id, search_key, description, capacity, blocked, creation_date, expiration_date FROM old_rows) changed
                 UNION SELECT domain_id FROM (SELECT id, domain_id, search_key, description, capacity, blocked, creation_date, expiration_date FROM old_rows
                                              EXCEPT SELECT id, domain_id, search_key, description, capacity, blocked, creation_date, expiration_date FROM new_rows) was);
  RETURN NULL;
END $$;
