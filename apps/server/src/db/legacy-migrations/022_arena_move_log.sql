-- The move is the write (docs/decisions.md, "The move is the write"). A plain move no longer
-- rewrites the match's whole state (a checkers state is ~1.5 kB and grows with the game; it
-- was two thirds of the bytes every move sent to PostgreSQL and the largest part of what
-- PostgreSQL parsed). matches.state is now a snapshot: written when the match starts, when a
-- game ends, on a draw offer or answer, at the end, and every ARENA_SNAPSHOT_EVERY moves. The
-- state after a move is the snapshot with the match's later moves (seq > state.seq) replayed
-- through the rules, so a move row carries what the replay needs besides the move: the lag the
-- client reported and whether it was a premove (its time and seat it had already). The replay
-- checks every replayed clock against the one stored with the move.

ALTER TABLE match_moves
  ADD COLUMN lag_ms double precision CHECK (lag_ms >= 0),
  ADD COLUMN premove boolean NOT NULL DEFAULT false;

-- Whose turn it is and since when (the clock's `since`, ms since the epoch), kept with every
-- change: the "your turn" notices and the list of active matches read them without a state.
ALTER TABLE matches
  ADD COLUMN to_move smallint[],
  ADD COLUMN turn_since double precision;

UPDATE matches
   SET to_move = ARRAY(SELECT (jsonb_array_elements_text(state -> 'clock' -> 'running'))::smallint),
       turn_since = (state -> 'clock' ->> 'since')::double precision
 WHERE state IS NOT NULL AND status = 'in_progress';

-- A move row's match is the match arena_write updated in the same statement (its moves go in
-- only for the matches whose version check passed) or arena_finish_write's own: the foreign
-- key's check, a query per move, proved nothing those statements had not. Matches are never
-- deleted (nothing deletes one; this makes it so), so no move can lose its match either.
ALTER TABLE match_moves DROP CONSTRAINT match_moves_match_id_fkey;

CREATE FUNCTION matches_never_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'matches are never deleted' USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER matches_never_deleted BEFORE DELETE ON matches
  FOR EACH ROW EXECUTE FUNCTION matches_never_deleted();
CREATE TRIGGER matches_never_truncated BEFORE TRUNCATE ON matches
  FOR EACH STATEMENT EXECUTE FUNCTION matches_never_deleted();

-- p_batch: {"changes": [{id, from, to, status, state, ready1, ready2, started, deadline, gameData, toMove, since}],
--           "moves": [{match, seq, game, seat, move, notation, at, r0, r1, elapsed, lag, premove}],
--           "events": [{match, topic, type, payload}]}
-- As in 010, with the turn columns and the move's lag and premove.
CREATE OR REPLACE FUNCTION arena_write(p_batch jsonb, OUT applied uuid[], OUT versions bigint[])
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  changes jsonb := p_batch -> 'changes';
  events jsonb := p_batch -> 'events';
  n_changes int := jsonb_array_length(p_batch -> 'changes');
  n_events int := jsonb_array_length(p_batch -> 'events');
  ids uuid[];
  kept jsonb;
  keep int[];
  published bigint[];
BEGIN
  SELECT array_agg((c ->> 'id')::uuid) INTO ids FROM jsonb_array_elements(changes) AS c;
  WITH u AS (
    UPDATE matches m
       SET status = x.status, state = coalesce(x.state, m.state), version = x."to",
           player1_ready_at = x.ready1, player2_ready_at = x.ready2, started_at = x.started,
           deadline_at = x.deadline, game_data = coalesce(x."gameData", m.game_data),
           to_move = x."toMove", turn_since = x.since, updated_at = now()
      FROM jsonb_to_recordset(changes)
           AS x (id uuid, "from" int, "to" int, status text, state jsonb, ready1 timestamptz, ready2 timestamptz,
                 started timestamptz, deadline timestamptz, "gameData" jsonb, "toMove" smallint[], since double precision)
     WHERE m.id = ANY (ids) AND m.id = x.id AND m.version = x."from"
    RETURNING m.id
  )
  SELECT coalesce(array_agg(u.id), '{}') INTO applied FROM u;

  INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms, lag_ms, premove)
  SELECT x.match, x.seq, x.game, x.seat, x.move, x.notation, x.at, ARRAY[x.r0, x.r1], x.elapsed, x.lag, coalesce(x.premove, false)
    FROM jsonb_to_recordset(p_batch -> 'moves')
         AS x (match uuid, seq int, game int, seat smallint, move jsonb, notation text, at timestamptz, r0 int, r1 int, elapsed int,
               lag double precision, premove boolean)
   WHERE coalesce(array_length(applied, 1), 0) = n_changes OR x.match = ANY (applied);

  IF coalesce(array_length(applied, 1), 0) = n_changes THEN
    -- Every change applied (the usual case): all events go.
    versions := coalesce(realtime_publish_jsonb(events), '{}');
    RETURN;
  END IF;

  -- Some were stale: only the applied matches' events.
  SELECT coalesce(array_agg(e.ord::int ORDER BY e.ord), '{}'), jsonb_agg(e.value ORDER BY e.ord)
    INTO keep, kept
    FROM jsonb_array_elements(events) WITH ORDINALITY AS e (value, ord)
   WHERE (e.value ->> 'match')::uuid = ANY (applied);
  published := realtime_publish_jsonb(kept);
  versions := array_fill(NULL::bigint, ARRAY[n_events]);
  FOR j IN 1 .. coalesce(array_length(keep, 1), 0) LOOP
    versions[keep[j]] := published[j];
  END LOOP;
END $$;

-- As in 011, with what a replay needs of the moves after the snapshot (the canonical move, the
-- lag, the premove flag) whether or not p_with_moves asks for every canonical move.
CREATE OR REPLACE FUNCTION arena_match_view(p_id uuid, p_with_moves boolean) RETURNS json
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  result json;
BEGIN
  SELECT row_to_json(v) INTO result FROM (
    SELECT m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
           m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at,
           m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag, m.player2_gamertag,
           m.room_code, m.completed_at, m.result, m.to_move,
           json_build_array(
             json_build_object('id', p1.id, 'username', p1.username, 'display_name', p1.display_name, 'avatar_url', p1.avatar_url,
               'account_type', p1.account_type, 'level', p1.level, 'wins', p1.wins, 'losses', p1.losses, 'streak', p1.streak,
               'rating', r1.rating, 'rd', r1.rd, 'games', r1.games),
             json_build_object('id', p2.id, 'username', p2.username, 'display_name', p2.display_name, 'avatar_url', p2.avatar_url,
               'account_type', p2.account_type, 'level', p2.level, 'wins', p2.wins, 'losses', p2.losses, 'streak', p2.streak,
               'rating', r2.rating, 'rd', r2.rd, 'games', r2.games)) AS players,
           (SELECT coalesce(json_agg(json_build_object('seq', mm.seq, 'game_index', mm.game_index, 'seat', mm.seat,
                     'move', CASE WHEN p_with_moves OR mm.seq > snap.seq THEN mm.move END,
                     'notation', mm.notation, 'created_at', mm.created_at,
                     'remaining_ms', mm.remaining_ms, 'elapsed_ms', mm.elapsed_ms, 'lag_ms', mm.lag_ms, 'premove', mm.premove)
                     ORDER BY mm.seq), '[]')
              FROM match_moves mm WHERE mm.match_id = m.id) AS moves
      FROM matches m
      CROSS JOIN LATERAL (SELECT coalesce((m.state ->> 'seq')::int, 0) AS seq) snap
      JOIN profiles p1 ON p1.id = m.player1_id
      JOIN profiles p2 ON p2.id = m.player2_id
      LEFT JOIN ratings r1 ON r1.user_id = m.player1_id AND r1.game = m.game_type
      LEFT JOIN ratings r2 ON r2.user_id = m.player2_id AND r2.game = m.game_type
     WHERE m.id = p_id
  ) v;
  RETURN result;
END $$;

-- A match with the moves stored after its snapshot (arena.repository.ts findCore). The moves
-- are found by the primary key (match, seq), never by reading the table: on a new database the
-- planner's statistics say match_moves is empty, and a connection's cached plan then kept
-- scanning the whole table (thousands of rows per read) long after it had filled (bench/moves).
CREATE FUNCTION arena_find_core(p_id uuid) RETURNS json
LANGUAGE plpgsql STABLE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  result json;
BEGIN
  SELECT json_build_object(
           'id', m.id, 'challenge_id', m.challenge_id, 'player1_id', m.player1_id, 'player2_id', m.player2_id,
           'game_type', m.game_type, 'status', m.status, 'stake', m.stake, 'currency', m.currency, 'is_private', m.is_private,
           'scheduled_time', m.scheduled_time, 'created_at', m.created_at, 'version', m.version, 'state', m.state,
           'player1_ready_at', m.player1_ready_at, 'player2_ready_at', m.player2_ready_at, 'started_at', m.started_at,
           'to_move', m.to_move,
           'later', (SELECT coalesce(json_agg(json_build_object('seq', mm.seq, 'seat', mm.seat, 'move', mm.move,
                              'created_at', mm.created_at, 'remaining_ms', mm.remaining_ms, 'lag_ms', mm.lag_ms,
                              'premove', mm.premove) ORDER BY mm.seq), '[]')
                       FROM match_moves mm
                      WHERE mm.match_id = m.id AND mm.seq > coalesce((m.state ->> 'seq')::int, 0)))
    INTO result
    FROM matches m WHERE m.id = p_id;
  RETURN result;
END $$;

ALTER FUNCTION arena_match_view(uuid, boolean) SET enable_seqscan = off;

-- As in 019, with the final move's lag and premove: every move row can be replayed, the last too.
CREATE OR REPLACE FUNCTION arena_finish_write(p jsonb) RETURNS bigint[]
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
END $$;
