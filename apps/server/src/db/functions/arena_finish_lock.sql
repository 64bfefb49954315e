-- A finish's locks and reads in one statement (arena.finish.ts), in the ledger's lock order: the match row,
-- its held stakes closed through ledger_close_holds (holds, then accounts), then both players' records
-- (arena_lock_records: profiles by id). A stale or ended match is answered as locked, nothing settled;
-- a refused close is answered, nothing read after it. One round trip where there were three.
CREATE OR REPLACE FUNCTION arena_finish_lock(p_id uuid, p_version int, p_mode text, p_key text, p_winner uuid,
                                             p_description text, p_players uuid[], p_game text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  m record;
  v_lock jsonb;
  v_settled jsonb;
  v_records jsonb;
BEGIN
  SELECT id, version, status, challenge_id, tournament_id INTO m FROM matches WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  v_lock := jsonb_build_object('version', m.version, 'status', m.status, 'challenge_id', m.challenge_id,
    'tournament_id', m.tournament_id,
    'holds', (SELECT coalesce(jsonb_agg(jsonb_build_object('user_id', h.user_id, 'amount', h.amount) ORDER BY h.id), '[]')
                FROM escrow_holds h WHERE h.owner_id = p_id AND h.status = 'held'));
  IF m.version <> p_version OR m.status NOT IN ('pending', 'accepted', 'in_progress') THEN
    RETURN jsonb_build_object('lock', v_lock);
  END IF;
  IF jsonb_array_length(v_lock -> 'holds') > 0 THEN
    v_settled := ledger_close_holds(p_mode, p_key, NULL, p_id, NULL, NULL, NULL, p_winner, p_description);
    IF NOT coalesce((v_settled ->> 'ok')::boolean, false) THEN
      RETURN jsonb_build_object('lock', v_lock, 'settled', v_settled);
    END IF;
  END IF;
  IF p_game IS NOT NULL THEN
    SELECT coalesce(jsonb_agg(to_jsonb(r) ORDER BY r.id), '[]') INTO v_records FROM arena_lock_records(p_players, p_game) r;
  END IF;
  RETURN jsonb_build_object('lock', v_lock, 'settled', v_settled, 'records', v_records);
END $function$;
