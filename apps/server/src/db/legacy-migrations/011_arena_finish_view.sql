-- The two other statements of a match's life that the move bench showed planning more than
-- running: the write that records a match's ending, and the match view. As functions with
-- generic plans they are planned once per connection.

-- Records a match's ending (arena.finish.ts), after the ledger has settled: the challenge
-- closed, both players' records and ratings, the move that ended it (if one did), the match
-- itself, and the events. Answers each event's topic version, in order.
-- p: {id, status, winnerId, endReason, completedAt, state, result, version, gameData,
--     challenge: {id, status} | null, profiles: [{id, wins, losses, streak, level, result}],
--     virtual, game, ratings: [{userId, rating, rd, volatility, result}],
--     move: {seq, game, seat, move, notation, at, r0, r1, elapsed} | null, events: [{topic, type, payload}]}
CREATE FUNCTION arena_finish_write(p jsonb) RETURNS bigint[]
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_id uuid := (p ->> 'id')::uuid;
  v_at timestamptz := (p ->> 'completedAt')::timestamptz;
  v_virtual boolean := (p ->> 'virtual')::boolean;
  v_ids uuid[];
BEGIN
  IF jsonb_typeof(p -> 'challenge') = 'object' THEN
    UPDATE challenges SET status = p -> 'challenge' ->> 'status', closed_at = v_at, updated_at = v_at
     WHERE id = (p -> 'challenge' ->> 'id')::uuid AND status = 'accepted';
  END IF;

  SELECT array_agg((x ->> 'id')::uuid) INTO v_ids FROM jsonb_array_elements(p -> 'profiles') AS x;
  UPDATE profiles pr
     SET wins = u.wins, losses = u.losses, streak = u.streak, level = u.level, updated_at = now(),
         virtual_games_played = pr.virtual_games_played + CASE WHEN v_virtual THEN 1 ELSE 0 END,
         virtual_wins = pr.virtual_wins + CASE WHEN v_virtual AND u.result = 'win' THEN 1 ELSE 0 END,
         virtual_losses = pr.virtual_losses + CASE WHEN v_virtual AND u.result = 'loss' THEN 1 ELSE 0 END
    FROM jsonb_to_recordset(p -> 'profiles') AS u (id uuid, wins int, losses int, streak int, level int, result text)
   WHERE pr.id = ANY (v_ids) AND pr.id = u.id;

  -- In user order, so two finishers never wait on each other's rating rows in a cycle.
  INSERT INTO ratings AS r (user_id, game, rating, rd, volatility, games, wins, losses, draws)
  SELECT u."userId", p ->> 'game', u.rating, u.rd, u.volatility, 1,
         (u.result = 'win')::int, (u.result = 'loss')::int, (u.result = 'draw')::int
    FROM jsonb_to_recordset(p -> 'ratings') AS u ("userId" uuid, rating float8, rd float8, volatility float8, result text)
   ORDER BY u."userId"
  ON CONFLICT (user_id, game) DO UPDATE SET
    rating = EXCLUDED.rating, rd = EXCLUDED.rd, volatility = EXCLUDED.volatility, games = r.games + 1,
    wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, draws = r.draws + EXCLUDED.draws,
    updated_at = now();

  IF jsonb_typeof(p -> 'move') = 'object' THEN
    INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
    SELECT v_id, x.seq, x.game, x.seat, x.move, x.notation, x.at, ARRAY[x.r0, x.r1], x.elapsed
      FROM jsonb_to_record(p -> 'move')
           AS x (seq int, game int, seat smallint, move jsonb, notation text, at timestamptz, r0 int, r1 int, elapsed int);
  END IF;

  UPDATE matches
     SET status = p ->> 'status', winner_id = (p ->> 'winnerId')::uuid, end_reason = p ->> 'endReason', completed_at = v_at,
         state = coalesce(CASE WHEN jsonb_typeof(p -> 'state') = 'object' THEN p -> 'state' END, state),
         result = p -> 'result', version = (p ->> 'version')::int, deadline_at = NULL,
         game_data = coalesce(CASE WHEN jsonb_typeof(p -> 'gameData') = 'object' THEN p -> 'gameData' END, game_data),
         updated_at = v_at
   WHERE id = v_id;

  RETURN coalesce(realtime_publish_jsonb(p -> 'events'), '{}');
END $$;

-- A match with its players (records, this game's rating) and every move, as one json row for
-- the views (arena.views.ts); the canonical moves only with p_with_moves (a finished match's
-- replay). NULL when there is no such match.
CREATE FUNCTION arena_match_view(p_id uuid, p_with_moves boolean) RETURNS json
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  result json;
BEGIN
  SELECT row_to_json(v) INTO result FROM (
    SELECT m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
           m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at,
           m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag, m.player2_gamertag,
           m.room_code, m.completed_at, m.result,
           json_build_array(
             json_build_object('id', p1.id, 'username', p1.username, 'display_name', p1.display_name, 'avatar_url', p1.avatar_url,
               'account_type', p1.account_type, 'level', p1.level, 'wins', p1.wins, 'losses', p1.losses, 'streak', p1.streak,
               'rating', r1.rating, 'rd', r1.rd, 'games', r1.games),
             json_build_object('id', p2.id, 'username', p2.username, 'display_name', p2.display_name, 'avatar_url', p2.avatar_url,
               'account_type', p2.account_type, 'level', p2.level, 'wins', p2.wins, 'losses', p2.losses, 'streak', p2.streak,
               'rating', r2.rating, 'rd', r2.rd, 'games', r2.games)) AS players,
           (SELECT coalesce(json_agg(json_build_object('seq', mm.seq, 'game_index', mm.game_index, 'seat', mm.seat,
                     'move', CASE WHEN p_with_moves THEN mm.move END, 'notation', mm.notation, 'created_at', mm.created_at,
                     'remaining_ms', mm.remaining_ms, 'elapsed_ms', mm.elapsed_ms) ORDER BY mm.seq), '[]')
              FROM match_moves mm WHERE mm.match_id = m.id) AS moves
      FROM matches m
      JOIN profiles p1 ON p1.id = m.player1_id
      JOIN profiles p2 ON p2.id = m.player2_id
      LEFT JOIN ratings r1 ON r1.user_id = m.player1_id AND r1.game = m.game_type
      LEFT JOIN ratings r2 ON r2.user_id = m.player2_id AND r2.game = m.game_type
     WHERE m.id = p_id
  ) v;
  RETURN result;
END $$;
