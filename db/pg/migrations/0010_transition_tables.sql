-- No trigger joins the old and the new transition tables any more. The update triggers of 0001, 0008 and 0009 found
-- each row's old version with `new_rows n JOIN old_rows o ON o.id = n.id`. PL/pgSQL plans a trigger's statements
-- once per connection, with the row counts of that first call's transition tables, and on a mail server nearly
-- every first call is a one-row update (a delivery's usage, a login). Kept for a bulk change, that plan is a nested
-- loop: a PUT of 1,000 names (two statements of 500 rows) compared 500 x 500 rows in each of four statements,
-- about 1 s per statement (auto_explain: "Rows Removed by Join Filter: 249500"), ~2 s per PUT where the statements
-- themselves take ~20 ms. Now the copies compare the new row with their own row, found by its primary key, and the
-- domain counters aggregate each side apart (sums; EXCEPT): plans that stay linear whatever the estimates.
CREATE OR REPLACE FUNCTION accounts_counters_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE domains d SET capacity_sum = d.capacity_sum + c.delta
  FROM (SELECT domain_id, sum(capacity) AS delta
        FROM (SELECT domain_id, capacity FROM new_rows UNION ALL SELECT domain_id, -capacity FROM old_rows) x
        GROUP BY domain_id) c
  WHERE d.id = c.domain_id AND c.delta <> 0;
  -- Both domains of a row whose search key or domain changed: the new versions not among the old, and the reverse.
  UPDATE domains d SET search_version = d.search_version + 1
  WHERE d.id IN (SELECT domain_id FROM (SELECT id, domain_id, search_key FROM new_rows
                                        EXCEPT SELECT id, domain_id, search_key FROM old_rows) changed
                 UNION SELECT domain_id FROM (SELECT id, domain_id, search_key FROM old_rows
                                              EXCEPT SELECT id, domain_id, search_key FROM new_rows) was);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION names_counters() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  col text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('UPDATE domains d SET %1$I = d.%1$I + c.n, search_version = d.search_version + 1
      FROM (SELECT domain_id, count(*) AS n FROM new_rows GROUP BY domain_id) c WHERE d.id = c.domain_id', col);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('UPDATE domains d SET %1$I = d.%1$I - c.n, search_version = d.search_version + 1
      FROM (SELECT domain_id, count(*) AS n FROM old_rows GROUP BY domain_id) c WHERE d.id = c.domain_id', col);
  ELSE
    UPDATE domains d SET search_version = d.search_version + 1
    WHERE d.id IN (SELECT domain_id FROM (SELECT id, domain_id, search_key FROM new_rows
                                          EXCEPT SELECT id, domain_id, search_key FROM old_rows) changed
                   UNION SELECT domain_id FROM (SELECT id, domain_id, search_key FROM old_rows
                                                EXCEPT SELECT id, domain_id, search_key FROM new_rows) was);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts_search s SET domain_id = n.domain_id, search_key = n.search_key, trigram_key = trigram_form(n.search_key)
  FROM new_rows n
  WHERE s.account_id = n.id AND (s.search_key IS DISTINCT FROM n.search_key OR s.domain_id IS DISTINCT FROM n.domain_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION accounts_order_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE accounts_order s SET domain_id = n.domain_id, name = n.name, search_key = n.search_key,
    description = n.description, capacity = n.capacity, blocked = n.blocked, creation_date = n.creation_date,
    expiration_date = n.expiration_date, last_auth_date = n.last_auth_date
  FROM new_rows n
  WHERE s.account_id = n.id
    AND (s.domain_id, s.name, s.search_key, s.description, s.capacity, s.blocked, s.creation_date, s.expiration_date, s.last_auth_date)
      IS DISTINCT FROM (n.domain_id, n.name, n.search_key, n.description, n.capacity, n.blocked, n.creation_date, n.expiration_date, n.last_auth_date);
  RETURN NULL;
END $$;
