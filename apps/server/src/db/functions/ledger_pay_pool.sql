-- Pays a tournament's pool in ONE operation. Every stake held for the tournament (the entries',
-- or a sponsor's prize) goes to the house account of its currency, and the house account of
-- p_currency pays each winner (p_payouts: [{userId, amount, description?}]). What is paid must
-- equal what was held, at par: a sponsor's pcredits fund credits prizes, each currency balancing
-- on its own through its house account. Holds, then accounts, each locked in id order.
CREATE OR REPLACE FUNCTION ledger_pay_pool(p_key text, p_tournament uuid, p_currency text, p_payouts jsonb, p_description text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_request jsonb := jsonb_build_object('tournament', p_tournament, 'currency', p_currency, 'payouts', p_payouts,
                                        'description', p_description);
  v_refusal jsonb;
  v_result jsonb;
  v_hold_ids bigint[];
  v_hold_users uuid[];
  v_hold_amounts bigint[];
  v_hold_currencies text[];
  v_held bigint;
  v_winners uuid[];
  v_amounts bigint[];
  v_notes text[];
  v_paid bigint;
  v_valid boolean;
  v_ids bigint[];
  v_missing boolean;
  v_balances jsonb;
  v_op bigint;
BEGIN
  IF p_tournament IS NULL OR jsonb_typeof(p_payouts) IS DISTINCT FROM 'array' THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  SELECT coalesce(array_agg((x.p ->> 'userId')::uuid ORDER BY x.n), '{}'),
         coalesce(array_agg((x.p ->> 'amount')::bigint ORDER BY x.n), '{}'),
         coalesce(array_agg(x.p ->> 'description' ORDER BY x.n), '{}'),
         coalesce(sum((x.p ->> 'amount')::bigint), 0),
         coalesce(bool_and((x.p ->> 'userId') IS NOT NULL AND (x.p ->> 'amount')::bigint > 0), true)
           AND count(DISTINCT x.p ->> 'userId') = count(*)
    INTO v_winners, v_amounts, v_notes, v_paid, v_valid
    FROM jsonb_array_elements(p_payouts) WITH ORDINALITY AS x (p, n);
  IF NOT v_valid OR cardinality(v_winners) = 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;

  SELECT array_agg(id ORDER BY id), array_agg(user_id ORDER BY id), array_agg(amount ORDER BY id),
         array_agg(currency::text ORDER BY id), sum(amount)
    INTO v_hold_ids, v_hold_users, v_hold_amounts, v_hold_currencies, v_held
    FROM (SELECT id, user_id, amount, currency FROM escrow_holds
           WHERE owner_id = p_tournament AND tournament_id = p_tournament AND status = 'held'
           ORDER BY id FOR UPDATE) held;

  -- Both accounts of every player the operation moves (holders in their stake's currency,
  -- winners in the prize's) and the house accounts of those currencies.
  WITH pairs AS (
    SELECT DISTINCT u, c FROM (
      SELECT h.u, h.c FROM unnest(v_hold_users, v_hold_currencies) AS h (u, c)
      UNION ALL
      SELECT w.u, p_currency FROM unnest(v_winners) AS w (u)) x
  )
  SELECT array_agg(a.id ORDER BY a.id) INTO v_ids FROM ledger_accounts a
   WHERE (a.kind = 'house' AND (a.currency = p_currency OR a.currency = ANY (v_hold_currencies)))
      OR EXISTS (SELECT 1 FROM pairs WHERE pairs.u = a.user_id AND pairs.c = a.currency);
  PERFORM 1 FROM ledger_accounts WHERE id = ANY (v_ids) ORDER BY id FOR UPDATE;

  SELECT EXISTS (SELECT 1 FROM unnest(v_winners) AS w (u)
                  WHERE NOT EXISTS (SELECT 1 FROM ledger_accounts a
                                     WHERE a.user_id = w.u AND a.currency = p_currency AND a.kind = 'available'))
    INTO v_missing;
  IF v_hold_ids IS NULL THEN
    v_refusal := '{"ok": false, "error": "nothing_held"}';
  ELSIF v_paid <> v_held THEN
    v_refusal := jsonb_build_object('ok', false, 'error', 'payout_mismatch', 'needed', v_held, 'available', v_paid);
  ELSIF v_missing THEN
    v_refusal := '{"ok": false, "error": "user_not_found"}';
  END IF;
  IF v_refusal IS NOT NULL THEN
    RETURN coalesce(ledger_replay(p_key, 'payout', v_request), v_refusal);
  END IF;

  -- The balances after, per player and currency (in that order).
  SELECT coalesce(jsonb_agg(jsonb_build_object('userId', b.user_id, 'currency', b.currency,
           'available', b.available + b.won, 'escrow', b.escrow - b.staked) ORDER BY b.user_id, b.currency), '[]')
    INTO v_balances
    FROM (SELECT a.user_id, a.currency::text AS currency,
                 coalesce(max(a.balance) FILTER (WHERE a.kind = 'available'), 0) AS available,
                 coalesce(max(a.balance) FILTER (WHERE a.kind = 'escrow'), 0) AS escrow,
                 coalesce((SELECT sum(w.amount) FROM unnest(v_winners, v_amounts) AS w (u, amount)
                            WHERE w.u = a.user_id AND a.currency = p_currency), 0) AS won,
                 coalesce((SELECT sum(h.amount) FROM unnest(v_hold_users, v_hold_amounts, v_hold_currencies) AS h (u, amount, c)
                            WHERE h.u = a.user_id AND h.c = a.currency), 0) AS staked
            FROM ledger_accounts a
           WHERE a.id = ANY (v_ids) AND a.user_id IS NOT NULL
           GROUP BY a.user_id, a.currency) b;
  v_result := jsonb_build_object('ok', true, 'currency', p_currency, 'amount', v_paid, 'holds', cardinality(v_hold_ids),
                                 'balances', v_balances);
  v_op := ledger_try_claim(p_key, 'payout', v_request, v_result);
  IF v_op IS NULL THEN RETURN ledger_replay(p_key, 'payout', v_request); END IF;

  -- Every stake into the pool (its currency's house), then every prize out of it.
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, tournament_id)
  SELECT v_op, e.id, house.id, h.amount, h.c, 'tournament_pool', p_description, h.id, p_tournament
    FROM unnest(v_hold_ids, v_hold_users, v_hold_amounts, v_hold_currencies) WITH ORDINALITY AS h (id, u, amount, c, n)
    JOIN ledger_accounts e ON e.user_id = h.u AND e.currency = h.c AND e.kind = 'escrow'
    JOIN ledger_accounts house ON house.kind = 'house' AND house.currency = h.c
   ORDER BY h.n;
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, tournament_id)
  SELECT v_op, house.id, a.id, w.amount, p_currency, 'tournament_prize', coalesce(w.note, p_description), p_tournament
    FROM unnest(v_winners, v_amounts, v_notes) WITH ORDINALITY AS w (u, amount, note, n)
    JOIN ledger_accounts a ON a.user_id = w.u AND a.currency = p_currency AND a.kind = 'available'
    JOIN ledger_accounts house ON house.kind = 'house' AND house.currency = p_currency
   ORDER BY w.n;
  UPDATE escrow_holds SET status = 'settled', closed_at = now(), close_operation_id = v_op WHERE id = ANY (v_hold_ids);
  -- SPEC §3 total_virtual_credits_earned: VTokens won beyond the player's own stake, in whole tokens.
  IF p_currency = 'vtokens' THEN
    UPDATE profiles p
       SET total_virtual_credits_earned = total_virtual_credits_earned + ((w.amount - coalesce(s.staked, 0)) / 100)::integer,
           updated_at = now()
      FROM unnest(v_winners, v_amounts) AS w (u, amount)
      LEFT JOIN (SELECT h.u, sum(h.amount) AS staked FROM unnest(v_hold_users, v_hold_amounts, v_hold_currencies) AS h (u, amount, c)
                  WHERE h.c = 'vtokens' GROUP BY h.u) s ON s.u = w.u
     WHERE p.id = w.u AND w.amount > coalesce(s.staked, 0);
  END IF;
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $function$;
