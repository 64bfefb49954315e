-- Transfers and operations are history: never changed, never deleted.
CREATE OR REPLACE FUNCTION ledger_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger: % rows are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $function$;
