-- Moves a stake from the player's available balance to escrow, held for one owner (challenge,
-- match, room or tournament). Claims its key with the INSERT itself; a replay answers the first result.
CREATE OR REPLACE FUNCTION ledger_lock_escrow(p_key text, p_user uuid, p_currency text, p_amount bigint, p_challenge uuid, p_match uuid, p_room uuid, p_tournament uuid, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_request jsonb;
  v_refusal jsonb;
  v_result jsonb;
  v_role text;
  v_type text;
  v_own text;
  v_currency text;
  v_available_id bigint;
  v_escrow_id bigint;
  v_available bigint := 0;
  v_escrow bigint := 0;
  v_op bigint;
  v_hold bigint;
  acc record;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room, p_tournament) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  -- The player's two accounts of the currency (the asked one, or their mode's), locked in id
  -- order. user_id and currency never change, so a row re-read after a wait still joins.
  FOR acc IN
    SELECT a.id, a.kind, a.balance, p.role, p.account_type
      FROM profiles p JOIN ledger_accounts a
        ON a.user_id = p.id AND a.currency = coalesce(p_currency, ledger_currency_for(p.role, p.account_type))
     WHERE p.id = p_user
     ORDER BY a.id
       FOR UPDATE OF a
  LOOP
    v_role := acc.role;
    v_type := acc.account_type;
    IF acc.kind = 'available' THEN
      v_available_id := acc.id;
      v_available := acc.balance;
    ELSE
      v_escrow_id := acc.id;
      v_escrow := acc.balance;
    END IF;
  END LOOP;
  IF v_role IS NULL THEN
    SELECT role, account_type INTO v_role, v_type FROM profiles WHERE id = p_user;
    IF NOT FOUND THEN RETURN '{"ok": false, "error": "user_not_found"}'; END IF;
  END IF;
  v_own := ledger_currency_for(v_role, v_type);
  v_currency := coalesce(p_currency, v_own);
  v_request := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount, 'challenge', p_challenge,
                                  'match', p_match, 'room', p_room, 'description', p_description)
               -- Only when set: the requests of earlier keys hash as they did.
               || CASE WHEN p_tournament IS NULL THEN '{}' ELSE jsonb_build_object('tournament', p_tournament) END;
  IF v_currency <> v_own THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'currency_not_allowed', 'currency', v_currency, 'allowed', v_own, 'accountType', v_type);
  ELSIF v_available < p_amount THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'insufficient', 'currency', v_currency, 'needed', p_amount, 'available', v_available);
  ELSIF EXISTS (SELECT 1 FROM escrow_holds WHERE owner_id = coalesce(p_challenge, p_match, p_room, p_tournament) AND user_id = p_user AND status = 'held') THEN
    v_refusal := '{"ok": false, "error": "already_held"}';
  END IF;
  IF v_refusal IS NOT NULL THEN
    -- A replay of an operation that went through is not refused for what it changed itself.
    RETURN coalesce(ledger_replay(p_key, 'lock', v_request), v_refusal);
  END IF;
  v_hold := nextval('escrow_holds_id_seq');
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', p_amount, 'holdId', v_hold,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', v_currency,
      'available', v_available - p_amount, 'escrow', v_escrow + p_amount)));
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, 'lock', md5(v_request::text)::uuid, v_result)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_op;
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, 'lock', v_request); END IF;
  INSERT INTO escrow_holds (id, user_id, currency, amount, challenge_id, match_id, room_id, tournament_id, lock_operation_id)
  OVERRIDING SYSTEM VALUE
  VALUES (v_hold, p_user, v_currency, p_amount, p_challenge, p_match, p_room, p_tournament, v_op);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id, tournament_id)
  VALUES (v_op, v_available_id, v_escrow_id, p_amount, v_currency, 'escrow_lock', p_description, v_hold, p_challenge, p_match, p_room, p_tournament);
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $function$;
