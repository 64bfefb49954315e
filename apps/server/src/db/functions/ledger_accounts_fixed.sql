-- An account is opened with an owner that fits its kind; its identity is fixed then, and it is
-- never deleted: transfers name it.
CREATE OR REPLACE FUNCTION ledger_accounts_fixed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF (NEW.kind = 'house') IS DISTINCT FROM (NEW.user_id IS NULL) THEN
      RAISE EXCEPTION 'ledger_accounts_owner: a house account has no user, and every other account has one'
        USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.id, NEW.user_id, NEW.currency, NEW.kind) IS NOT DISTINCT FROM (OLD.id, OLD.user_id, OLD.currency, OLD.kind) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'ledger: an account''s owner, currency and kind never change, and accounts are never deleted'
    USING ERRCODE = 'restrict_violation';
END $function$;
