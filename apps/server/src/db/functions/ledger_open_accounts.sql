-- Opens a user's available and escrow accounts of a currency if missing. (Helpers are
-- PL/pgSQL, not SQL functions: PL/pgSQL keeps its query plans between calls.)
CREATE OR REPLACE FUNCTION ledger_open_accounts(p_user uuid, p_currency text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO ledger_accounts (user_id, currency, kind)
  VALUES (p_user, p_currency, 'available'), (p_user, p_currency, 'escrow')
  ON CONFLICT DO NOTHING;
END $function$;
