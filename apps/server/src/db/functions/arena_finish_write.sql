-- A match's end in one statement: result, challenge, profiles, ratings (real-money matches only),
-- the final move with its lag and premove, and the events; web games and external results alike.
CREATE OR REPLACE FUNCTION arena_finish_write(p jsonb)
 RETURNS bigint[]
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
DECLARE
  v_id uuid := (p ->> 'id')::uuid;
  v_at timestamptz := (p ->> 'completedAt')::timestamptz;
  v_virtual boolean := coalesce((p ->> 'virtual')::boolean, false);
  v_ids uuid[];
BEGIN
  IF jsonb_typeof(p -> 'challenge') = 'object' THEN
    UPDATE challenges SET status = p -> 'challenge' ->> 'status', closed_at = v_at, updated_at = v_at
     WHERE id = (p -> 'challenge' ->> 'id')::uuid AND status = 'accepted';
  END IF;

  SELECT array_agg((x ->> 'id')::uuid) INTO v_ids FROM jsonb_array_elements(p -> 'profiles') AS x;
  UPDATE profiles pr
     SET wins = CASE WHEN v_virtual THEN pr.wins ELSE u.wins END,
         losses = CASE WHEN v_virtual THEN pr.losses ELSE u.losses END,
         streak = CASE WHEN v_virtual THEN pr.streak ELSE u.streak END,
         level = CASE WHEN v_virtual THEN pr.level ELSE u.level END,
         updated_at = now(),
         virtual_games_played = pr.virtual_games_played + CASE WHEN v_virtual THEN 1 ELSE 0 END,
         virtual_wins = pr.virtual_wins + CASE WHEN v_virtual AND u.result = 'win' THEN 1 ELSE 0 END,
         virtual_losses = pr.virtual_losses + CASE WHEN v_virtual AND u.result = 'loss' THEN 1 ELSE 0 END
    FROM jsonb_to_recordset(p -> 'profiles') AS u (id uuid, wins int, losses int, streak int, level int, result text)
   WHERE pr.id = ANY (v_ids) AND pr.id = u.id;

  -- In user order, so two finishers never wait on each other's rating rows in a cycle.
  -- A VTokens match is not rated.
  INSERT INTO ratings AS r (user_id, game, rating, rd, volatility, games, wins, losses, draws)
  SELECT u."userId", p ->> 'game', u.rating, u.rd, u.volatility, 1,
         (u.result = 'win')::int, (u.result = 'loss')::int, (u.result = 'draw')::int
    FROM jsonb_to_recordset(p -> 'ratings') AS u ("userId" uuid, rating float8, rd float8, volatility float8, result text)
   WHERE NOT v_virtual
   ORDER BY u."userId"
  ON CONFLICT (user_id, game) DO UPDATE SET
    rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility, games = r.games + 1,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, draws = r.draws + EXCLUDED.draws,
    updated_at = now();

  IF jsonb_typeof(p -> 'move') = 'object' THEN
    INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms, lag_ms, premove)
    SELECT v_id, x.seq, x.game, x.seat, x.move, x.notation, x.at, ARRAY[x.r0, x.r1], x.elapsed, x.lag, coalesce(x.premove, false)
      FROM jsonb_to_record(p -> 'move')
           AS x (seq int, game int, seat smallint, move jsonb, notation text, at timestamptz, r0 int, r1 int, elapsed int,
                 lag double precision, premove boolean);
  END IF;

  UPDATE matches
     SET status = p ->> 'status', winner_id = (p ->> 'winnerId')::uuid, end_reason = p ->> 'endReason', completed_at = v_at,
         state = coalesce(CASE WHEN jsonb_typeof(p -> 'state') = 'object' THEN p -> 'state' END, state),
         result = p -> 'result', version = (p ->> 'version')::int, deadline_at = NULL,
         game_data = coalesce(CASE WHEN jsonb_typeof(p -> 'gameData') = 'object' THEN p -> 'gameData' END, game_data),
         updated_at = v_at
   WHERE id = v_id;

  RETURN coalesce(realtime_publish_jsonb(p -> 'events'), '{}');
END $function$;
