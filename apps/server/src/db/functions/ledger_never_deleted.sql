-- Escrow holds are closed, never deleted: transfers name them.
CREATE OR REPLACE FUNCTION ledger_never_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger: % rows are never deleted', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $function$;
