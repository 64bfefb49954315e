-- SPEC §6: the role decides the currency; virtual accounts use VTokens (money.ts currencyFor).
CREATE OR REPLACE FUNCTION ledger_currency_for(p_role text, p_account_type text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_account_type = 'virtual' THEN 'vtokens'
              WHEN p_role IN ('promoter', 'admin') THEN 'pcredits'
              ELSE 'credits' END
$function$;
