-- SPEC §4 weekly virtual allowance. The rule: when 7 days or more have passed since the last
-- reset of a virtual account, its available VTokens are topped back up to 500 by a grant from
-- the house (tokens won above 500 are kept, tokens in escrow are not counted), the week's
-- remaining allowance goes back to 500 and the reset time becomes now. Returns NULL when no
-- reset is due.
CREATE OR REPLACE FUNCTION ledger_weekly_reset(p_user uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_allowance constant bigint := 50000;
  acc record;
  v_last timestamptz;
  v_top_up bigint;
  v_key text;
  v_result jsonb;
  v_op bigint;
BEGIN
  PERFORM ledger_open_accounts(p_user, 'vtokens');
  acc := ledger_lock_user(p_user, 'vtokens', true);
  SELECT weekly_virtual_credits_last_reset INTO v_last FROM profiles
   WHERE id = p_user AND account_type = 'virtual' AND weekly_virtual_credits_last_reset <= now() - interval '7 days'
   FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  UPDATE profiles
     SET weekly_virtual_credits_remaining = v_allowance / 100, weekly_virtual_credits_last_reset = now(), updated_at = now()
   WHERE id = p_user;
  v_top_up := greatest(0, v_allowance - acc.available);
  IF v_top_up = 0 THEN
    RETURN jsonb_build_object('ok', true, 'operationId', NULL, 'amount', 0, 'currency', 'vtokens', 'balances', '[]'::jsonb);
  END IF;
  v_key := 'weekly-reset:' || p_user || ':' || extract(epoch FROM v_last)::text;
  v_result := jsonb_build_object('ok', true, 'currency', 'vtokens', 'amount', v_top_up,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', 'vtokens',
      'available', acc.available + v_top_up, 'escrow', acc.escrow)));
  v_op := ledger_claim(v_key, 'weekly_reset', jsonb_build_object('user', p_user, 'lastReset', v_last), v_result);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.house_id, acc.available_id, v_top_up, 'vtokens', 'weekly_reset', 'Weekly VTokens');
  RETURN v_result || jsonb_build_object('operationId', v_op);
END $function$;
