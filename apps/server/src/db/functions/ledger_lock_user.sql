-- Locks the user's available and escrow accounts of a currency (and the house's when asked)
-- in id order, in one statement, and returns their ids and balances. Missing accounts read
-- as balance 0 and id NULL. The ids are looked up first (they never change) so the locking
-- statement has a plain `id = ANY` condition: under READ COMMITTED a row updated by a
-- concurrent transaction is re-read after the wait, and a join in the locking statement
-- could drop that row instead.
CREATE OR REPLACE FUNCTION ledger_lock_user(p_user uuid, p_currency text, p_with_house boolean, OUT house_id bigint, OUT available_id bigint, OUT escrow_id bigint, OUT available bigint, OUT escrow bigint)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_ids bigint[];
BEGIN
  v_ids := ARRAY(SELECT id FROM ledger_accounts WHERE user_id = p_user AND currency = p_currency);
  IF p_with_house THEN
    v_ids := v_ids || (SELECT id FROM ledger_accounts WHERE kind = 'house' AND currency = p_currency);
  END IF;
  SELECT max(id) FILTER (WHERE kind = 'house'),
         max(id) FILTER (WHERE kind = 'available'),
         max(id) FILTER (WHERE kind = 'escrow'),
         coalesce(max(balance) FILTER (WHERE kind = 'available'), 0),
         coalesce(max(balance) FILTER (WHERE kind = 'escrow'), 0)
    INTO house_id, available_id, escrow_id, available, escrow
    FROM (SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY (v_ids) ORDER BY id FOR UPDATE) locked;
END $function$;
