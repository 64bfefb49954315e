-- Debits a user's available balance to the house; refused when it does not cover the amount.
-- Idempotent by key.
CREATE OR REPLACE FUNCTION ledger_spend(p_key text, p_user uuid, p_currency text, p_amount bigint, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_request jsonb := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount, 'description', p_description);
  v_refusal jsonb;
  v_result jsonb;
  prof record;
  v_own text;
  v_currency text;
  acc record;
  v_op bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  SELECT role, account_type INTO prof FROM profiles WHERE id = p_user;
  IF NOT FOUND THEN RETURN '{"ok": false, "error": "user_not_found"}'; END IF;
  v_own := ledger_currency_for(prof.role, prof.account_type);
  v_currency := coalesce(p_currency, v_own);
  acc := ledger_lock_user(p_user, v_currency, true);
  IF v_currency <> v_own THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'currency_not_allowed', 'currency', v_currency, 'allowed', v_own, 'accountType', prof.account_type);
  ELSIF acc.available < p_amount THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'insufficient', 'currency', v_currency, 'needed', p_amount, 'available', acc.available);
  END IF;
  IF v_refusal IS NOT NULL THEN
    RETURN coalesce(ledger_replay(p_key, 'spend', v_request), v_refusal);
  END IF;
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', p_amount,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', v_currency,
      'available', acc.available - p_amount, 'escrow', acc.escrow)));
  v_op := ledger_try_claim(p_key, 'spend', v_request, v_result);
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, 'spend', v_request); END IF;
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.available_id, acc.house_id, p_amount, v_currency, 'spend', p_description);
  IF v_currency = 'vtokens' THEN
    UPDATE profiles
       SET weekly_virtual_credits_remaining = greatest(0, weekly_virtual_credits_remaining - ceil(p_amount / 100.0)::integer),
           updated_at = now()
     WHERE id = p_user;
  END IF;
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $function$;
