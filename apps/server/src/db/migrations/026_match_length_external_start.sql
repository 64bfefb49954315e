-- The match length the creator chose (challenges.duration, minutes), kept on the match: its clocks
-- derive from it (domain arena.ts matchTimeControl). NULL for a private room's match: the game's
-- standard time control.
ALTER TABLE matches ADD COLUMN duration integer CHECK (duration BETWEEN 1 AND 600);
UPDATE matches m SET duration = c.duration FROM challenges c WHERE c.id = m.challenge_id;

-- As in 022, with the match length.
CREATE OR REPLACE FUNCTION arena_match_view(p_id uuid, p_with_moves boolean) RETURNS json
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  result json;
BEGIN
  SELECT row_to_json(v) INTO result FROM (
    SELECT m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
           m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at,
           m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag, m.player2_gamertag,
           m.room_code, m.completed_at, m.result, m.to_move, m.duration,
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

-- As in 022, with the match length.
CREATE OR REPLACE FUNCTION arena_find_core(p_id uuid) RETURNS json
LANGUAGE plpgsql STABLE SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  result json;
BEGIN
  SELECT json_build_object(
           'id', m.id, 'challenge_id', m.challenge_id, 'player1_id', m.player1_id, 'player2_id', m.player2_id,
           'game_type', m.game_type, 'status', m.status, 'stake', m.stake, 'currency', m.currency, 'is_private', m.is_private,
           'scheduled_time', m.scheduled_time, 'created_at', m.created_at, 'version', m.version, 'state', m.state,
           'player1_ready_at', m.player1_ready_at, 'player2_ready_at', m.player2_ready_at, 'started_at', m.started_at,
           'to_move', m.to_move, 'duration', m.duration,
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

-- An external game (played on the players' own platform, then reported) runs without a refereed
-- state: it is in progress once both players are ready or its scheduled start has come.
ALTER TABLE matches DROP CONSTRAINT matches_running_has_state;
ALTER TABLE matches ADD CONSTRAINT matches_running_has_state CHECK (
  status <> 'in_progress' OR (started_at IS NOT NULL AND (state IS NOT NULL
    OR game_type NOT IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors'))));
