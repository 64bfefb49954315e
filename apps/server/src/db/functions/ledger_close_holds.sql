-- Closes the held holds of one owner (challenge, match, room or tournament), optionally only one player's:
--   p_mode 'release' / 'draw': each stake back to its player's available balance;
--   p_mode 'settle': every stake to the winner's available balance (2 × stake for a match, no fee).
CREATE OR REPLACE FUNCTION ledger_close_holds(p_mode text, p_key text, p_challenge uuid, p_match uuid, p_room uuid, p_tournament uuid, p_user uuid, p_winner uuid, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
  v_kind text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'release' END;
  v_reason text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'escrow_release' END;
  v_request jsonb;
  v_owner uuid := coalesce(p_challenge, p_match, p_room, p_tournament);
  v_refusal jsonb;
  v_result jsonb;
  v_hold_ids bigint[];
  v_hold_users uuid[];
  v_hold_amounts bigint[];
  v_currency text;
  v_mixed boolean;
  v_total bigint;
  v_winner_stake bigint;
  -- The players (in uuid order), and for each (same index) their accounts, balances and stake.
  v_users uuid[];
  v_available_ids bigint[];
  v_escrow_ids bigint[];
  v_available bigint[];
  v_escrow bigint[];
  v_stakes bigint[];
  -- For each hold (same index as v_hold_ids): the accounts its transfer moves between.
  v_from bigint[] := '{}';
  v_to bigint[] := '{}';
  v_balances jsonb := '[]';
  v_winner int;
  u int;
  acc record;
  v_op bigint;
BEGIN
  IF p_mode NOT IN ('release', 'draw', 'settle') THEN RAISE EXCEPTION 'ledger: unknown close mode %', p_mode; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room, p_tournament) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  IF p_mode = 'settle' AND p_winner IS NULL THEN RETURN '{"ok": false, "error": "winner_without_stake"}'; END IF;

  -- Holds first, then every account of their players in the currency, each in id order.
  SELECT array_agg(id ORDER BY id), array_agg(user_id ORDER BY id), array_agg(amount ORDER BY id),
         min(currency), min(currency) IS DISTINCT FROM max(currency), sum(amount),
         coalesce(sum(amount) FILTER (WHERE user_id = p_winner), 0),
         coalesce(array_agg(DISTINCT user_id ORDER BY user_id), '{}')
    INTO v_hold_ids, v_hold_users, v_hold_amounts, v_currency, v_mixed, v_total, v_winner_stake, v_users
    FROM (SELECT id, user_id, amount, currency FROM escrow_holds
           WHERE owner_id = v_owner AND status = 'held'
             AND challenge_id IS NOT DISTINCT FROM p_challenge AND match_id IS NOT DISTINCT FROM p_match
             AND room_id IS NOT DISTINCT FROM p_room AND tournament_id IS NOT DISTINCT FROM p_tournament
             AND (p_user IS NULL OR user_id = p_user)
           ORDER BY id FOR UPDATE) held;
  v_available_ids := array_fill(NULL::bigint, ARRAY[cardinality(v_users)]);
  v_escrow_ids := v_available_ids;
  v_available := v_available_ids;
  v_escrow := v_available_ids;
  v_stakes := array_fill(0::bigint, ARRAY[cardinality(v_users)]);
  FOR acc IN
    SELECT id, user_id, kind, balance FROM ledger_accounts
     WHERE user_id = ANY (v_users) AND currency = v_currency ORDER BY id FOR UPDATE
  LOOP
    u := array_position(v_users, acc.user_id);
    IF acc.kind = 'available' THEN
      v_available_ids[u] := acc.id;
      v_available[u] := acc.balance;
    ELSIF acc.kind = 'escrow' THEN
      v_escrow_ids[u] := acc.id;
      v_escrow[u] := acc.balance;
    END IF;
  END LOOP;

  v_request := jsonb_build_object('challenge', p_challenge, 'match', p_match, 'room', p_room,
                                  'user', p_user, 'winner', p_winner, 'description', p_description)
               -- Only when set: the requests of earlier keys hash as they did.
               || CASE WHEN p_tournament IS NULL THEN '{}' ELSE jsonb_build_object('tournament', p_tournament) END;
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

  -- Each stake leaves its player's escrow for the winner's (settle) or its player's own
  -- (release, draw) available balance.
  v_winner := array_position(v_users, p_winner);
  FOR i IN 1 .. cardinality(v_hold_ids) LOOP
    u := array_position(v_users, v_hold_users[i]);
    v_stakes[u] := v_stakes[u] + v_hold_amounts[i];
    v_from := v_from || v_escrow_ids[u];
    v_to := v_to || v_available_ids[CASE WHEN p_mode = 'settle' THEN v_winner ELSE u END];
  END LOOP;
  -- The balances after, per player in uuid order.
  FOR u IN 1 .. cardinality(v_users) LOOP
    v_balances := v_balances || jsonb_build_object('userId', v_users[u], 'currency', v_currency,
      'available', v_available[u] + CASE WHEN p_mode <> 'settle' THEN v_stakes[u] WHEN u = v_winner THEN v_total ELSE 0 END,
      'escrow', v_escrow[u] - v_stakes[u]);
  END LOOP;
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', v_total, 'holds', cardinality(v_hold_ids), 'balances', v_balances);
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, v_kind, md5(v_request::text)::uuid, v_result)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_op;
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, v_kind, v_request); END IF;

  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id, tournament_id)
  SELECT v_op, h.from_id, h.to_id, h.amount, v_currency, v_reason, p_description, h.id, p_challenge, p_match, p_room, p_tournament
    FROM unnest(v_hold_ids, v_from, v_to, v_hold_amounts) WITH ORDINALITY h (id, from_id, to_id, amount, n)
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
END $function$;
