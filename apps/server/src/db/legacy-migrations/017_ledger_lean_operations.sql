-- The two hot money operations, leaner: escrow lock (every challenge and acceptance) and
-- close (every result, cancellation and expiry). Same signatures, same results, same refusals,
-- same lock order as 003_ledger.sql; less work per call (bench/ledger, PostgreSQL's share
-- measured with pgbench driving the functions: a lock 1,350 → 1,640 per second):
--  * The idempotency check is folded into the claim: INSERT ... ON CONFLICT DO NOTHING, and
--    only a conflict (or a refusal) looks the key up. A replay racing its original still waits
--    for it (the unique index makes it) and then returns its result; two different requests
--    with one key now both end without an error: one moves money, the other is "key_reused".
--    (Grants and spends, at the end of this file, claim their keys the same way.)
--  * A player's accounts are locked by one statement on (user_id, currency): those columns
--    never change, so a row re-read after waiting for a concurrent update still qualifies.
--  * Holds and accounts travel as plain arrays, not arrays of rows; transfers are written by
--    one INSERT ... SELECT.

-- Records the operation and its result under its key, returning its id; NULL when the key is
-- taken (a replay, or another request with the key: the caller answers with ledger_replay). A
-- claim racing another transaction's uncommitted one waits for it, then sees it.
CREATE FUNCTION ledger_try_claim(p_key text, p_kind text, p_request jsonb, p_result jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, p_kind, md5(p_request::text)::uuid, p_result)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $$;

CREATE OR REPLACE FUNCTION ledger_lock_escrow(p_key text, p_user uuid, p_currency text, p_amount bigint,
  p_challenge uuid, p_match uuid, p_room uuid, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
  v_available bigint;
  v_escrow bigint;
  v_op bigint;
  v_hold bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  SELECT role, account_type INTO v_role, v_type FROM profiles WHERE id = p_user;
  IF NOT FOUND THEN RETURN '{"ok": false, "error": "user_not_found"}'; END IF;
  v_own := ledger_currency_for(v_role, v_type);
  v_currency := coalesce(p_currency, v_own);
  -- The player's two accounts of the currency, locked in id order in one statement.
  SELECT max(id) FILTER (WHERE kind = 'available'), max(id) FILTER (WHERE kind = 'escrow'),
         coalesce(max(balance) FILTER (WHERE kind = 'available'), 0), coalesce(max(balance) FILTER (WHERE kind = 'escrow'), 0)
    INTO v_available_id, v_escrow_id, v_available, v_escrow
    FROM (SELECT id, kind, balance FROM ledger_accounts WHERE user_id = p_user AND currency = v_currency ORDER BY id FOR UPDATE) locked;
  v_request := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount, 'challenge', p_challenge,
                                  'match', p_match, 'room', p_room, 'description', p_description);
  IF v_currency <> v_own THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'currency_not_allowed', 'currency', v_currency, 'allowed', v_own, 'accountType', v_type);
  ELSIF v_available < p_amount THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'insufficient', 'currency', v_currency, 'needed', p_amount, 'available', v_available);
  ELSIF EXISTS (SELECT 1 FROM escrow_holds WHERE owner_id = coalesce(p_challenge, p_match, p_room) AND user_id = p_user AND status = 'held') THEN
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
  v_op := ledger_try_claim(p_key, 'lock', v_request, v_result);
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, 'lock', v_request); END IF;
  INSERT INTO escrow_holds (id, user_id, currency, amount, challenge_id, match_id, room_id, lock_operation_id)
  OVERRIDING SYSTEM VALUE
  VALUES (v_hold, p_user, v_currency, p_amount, p_challenge, p_match, p_room, v_op);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id)
  VALUES (v_op, v_available_id, v_escrow_id, p_amount, v_currency, 'escrow_lock', p_description, v_hold, p_challenge, p_match, p_room);
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- Closes the held holds of one owner (optionally only one player's):
--   p_mode 'release' / 'draw': each stake back to its player's available balance;
--   p_mode 'settle': every stake to the winner's available balance (2 × stake for a match, no fee).
CREATE OR REPLACE FUNCTION ledger_close_holds(p_mode text, p_key text, p_challenge uuid, p_match uuid, p_room uuid,
  p_user uuid, p_winner uuid, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_kind text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'release' END;
  v_reason text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'escrow_release' END;
  v_request jsonb;
  v_owner uuid := coalesce(p_challenge, p_match, p_room);
  v_refusal jsonb;
  v_result jsonb;
  v_hold_ids bigint[];
  v_hold_users uuid[];
  v_hold_amounts bigint[];
  v_currency text;
  v_mixed boolean;
  v_users uuid[];
  v_account_ids bigint[];
  v_account_users uuid[];
  v_account_kinds text[];
  v_account_balances bigint[];
  v_op bigint;
  v_total bigint;
  v_winner_stake bigint;
  v_balances jsonb;
BEGIN
  IF p_mode NOT IN ('release', 'draw', 'settle') THEN RAISE EXCEPTION 'ledger: unknown close mode %', p_mode; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  IF p_mode = 'settle' AND p_winner IS NULL THEN RETURN '{"ok": false, "error": "winner_without_stake"}'; END IF;

  -- Holds first, then every account of their players in the currency, each in id order.
  SELECT array_agg(id ORDER BY id), array_agg(user_id ORDER BY id), array_agg(amount ORDER BY id),
         min(currency), min(currency) IS DISTINCT FROM max(currency), sum(amount),
         coalesce(sum(amount) FILTER (WHERE user_id = p_winner), 0)
    INTO v_hold_ids, v_hold_users, v_hold_amounts, v_currency, v_mixed, v_total, v_winner_stake
    FROM (SELECT id, user_id, amount, currency FROM escrow_holds
           WHERE owner_id = v_owner AND status = 'held'
             AND challenge_id IS NOT DISTINCT FROM p_challenge AND match_id IS NOT DISTINCT FROM p_match
             AND room_id IS NOT DISTINCT FROM p_room AND (p_user IS NULL OR user_id = p_user)
           ORDER BY id FOR UPDATE) held;
  v_users := ARRAY(SELECT DISTINCT u FROM unnest(v_hold_users) u);
  SELECT array_agg(id ORDER BY id), array_agg(user_id ORDER BY id), array_agg(kind ORDER BY id), array_agg(balance ORDER BY id)
    INTO v_account_ids, v_account_users, v_account_kinds, v_account_balances
    FROM (SELECT id, user_id, kind, balance FROM ledger_accounts
           WHERE user_id = ANY (v_users) AND currency = v_currency ORDER BY id FOR UPDATE) locked;

  v_request := jsonb_build_object('challenge', p_challenge, 'match', p_match, 'room', p_room,
                                  'user', p_user, 'winner', p_winner, 'description', p_description);
  IF v_hold_ids IS NULL THEN
    v_refusal := '{"ok": false, "error": "nothing_held"}';
  ELSIF v_mixed THEN
    v_refusal := '{"ok": false, "error": "mixed_currencies"}';
  ELSIF p_mode = 'settle' AND NOT (p_winner = ANY (v_users)) THEN
    v_refusal := '{"ok": false, "error": "winner_without_stake"}';
  ELSIF p_mode = 'settle' AND cardinality(v_users) < 2 THEN
    v_refusal := '{"ok": false, "error": "stakes_missing"}';
  END IF;
  IF v_refusal IS NOT NULL THEN
    RETURN coalesce(ledger_replay(p_key, v_kind, v_request), v_refusal);
  END IF;

  -- The balances after: each player's escrow loses their stake; the winner (settle) or each
  -- player (release, draw) gains it in available.
  SELECT jsonb_agg(jsonb_build_object('userId', a.user_id, 'currency', v_currency,
           'available', a.available + CASE WHEN p_mode = 'settle' THEN CASE WHEN a.user_id = p_winner THEN v_total ELSE 0 END
                                           ELSE a.stake END,
           'escrow', a.escrow - a.stake) ORDER BY a.user_id)
    INTO v_balances
    FROM (SELECT acc.user_id,
                 max(acc.balance) FILTER (WHERE acc.kind = 'available') AS available,
                 max(acc.balance) FILTER (WHERE acc.kind = 'escrow') AS escrow,
                 (SELECT sum(h.amount) FROM unnest(v_hold_users, v_hold_amounts) h (user_id, amount) WHERE h.user_id = acc.user_id) AS stake
            FROM unnest(v_account_users, v_account_kinds, v_account_balances) acc (user_id, kind, balance)
           GROUP BY acc.user_id) a;
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', v_total, 'holds', cardinality(v_hold_ids), 'balances', v_balances);
  v_op := ledger_try_claim(p_key, v_kind, v_request, v_result);
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, v_kind, v_request); END IF;

  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id)
  SELECT v_op,
         (SELECT a.id FROM unnest(v_account_ids, v_account_users, v_account_kinds) a (id, user_id, kind) WHERE a.user_id = h.user_id AND a.kind = 'escrow'),
         (SELECT a.id FROM unnest(v_account_ids, v_account_users, v_account_kinds) a (id, user_id, kind)
           WHERE a.user_id = CASE WHEN p_mode = 'settle' THEN p_winner ELSE h.user_id END AND a.kind = 'available'),
         h.amount, v_currency, v_reason, p_description, h.id, p_challenge, p_match, p_room
    FROM unnest(v_hold_ids, v_hold_users, v_hold_amounts) WITH ORDINALITY h (id, user_id, amount, n)
   ORDER BY h.n;
  UPDATE escrow_holds
     SET status = CASE WHEN p_mode = 'settle' THEN 'settled' ELSE 'released' END,
         closed_at = now(), close_operation_id = v_op
   WHERE id = ANY (v_hold_ids);
  -- SPEC §3 total_virtual_credits_earned: the VTokens a virtual player won (the others' stakes),
  -- in whole tokens.
  IF p_mode = 'settle' AND v_currency = 'vtokens' THEN
    UPDATE profiles
       SET total_virtual_credits_earned = total_virtual_credits_earned + ((v_total - v_winner_stake) / 100)::integer,
           updated_at = now()
     WHERE id = p_winner;
  END IF;
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- Grants and spends claim their key the same way, so every operation answers a racing key alike.

CREATE OR REPLACE FUNCTION ledger_grant(p_key text, p_user uuid, p_currency text, p_amount bigint, p_reason text, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
END $$;

CREATE OR REPLACE FUNCTION ledger_spend(p_key text, p_user uuid, p_currency text, p_amount bigint, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
END $$;
