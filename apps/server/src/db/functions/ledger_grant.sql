-- Credits a user's available balance from the house (starting credits, admin grants); idempotent
-- by key: a replay answers the first result.
CREATE OR REPLACE FUNCTION ledger_grant(p_key text, p_user uuid, p_currency text, p_amount bigint, p_reason text, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_request jsonb := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount,
                                        'reason', p_reason, 'description', p_description);
  v_result jsonb;
  acc record;
  v_op bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  IF p_reason NOT IN ('starting', 'grant', 'admin_grant', 'weekly_reset') THEN
    RAISE EXCEPTION 'ledger: % is not a grant reason', p_reason;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM users WHERE id = p_user) THEN
    RETURN '{"ok": false, "error": "user_not_found"}';
  END IF;
  PERFORM ledger_open_accounts(p_user, p_currency);
  acc := ledger_lock_user(p_user, p_currency, true);
  v_result := jsonb_build_object('ok', true, 'currency', p_currency, 'amount', p_amount,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', p_currency,
      'available', acc.available + p_amount, 'escrow', acc.escrow)));
  v_op := ledger_try_claim(p_key, 'grant', v_request, v_result);
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, 'grant', v_request); END IF;
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.house_id, acc.available_id, p_amount, p_currency, p_reason, p_description);
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $function$;
