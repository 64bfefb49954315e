-- Applies a transfer to both accounts' balances, in its currency; fails unless exactly two rows
-- moved (this proves the transfer's accounts exist in that currency).
CREATE OR REPLACE FUNCTION ledger_transfers_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_moved integer;
BEGIN
  UPDATE ledger_accounts
     SET balance = balance + CASE WHEN id = NEW.to_account THEN NEW.amount ELSE -NEW.amount END
   WHERE id IN (NEW.from_account, NEW.to_account) AND currency = NEW.currency;
  GET DIAGNOSTICS v_moved = ROW_COUNT;
  IF v_moved <> 2 THEN
    RAISE EXCEPTION 'ledger: a transfer of % names an account (% or %) that is not a % account', NEW.currency,
      NEW.from_account, NEW.to_account, NEW.currency USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $function$;
