-- A match as the client sees it, with what a replay needs of the moves after the snapshot (the
-- canonical move, the lag, the premove flag) whether or not p_with_moves asks for every move.
CREATE OR REPLACE FUNCTION arena_match_view(p_id uuid, p_with_moves boolean)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
AS $function$
DECLARE
  result json;
BEGIN
  SELECT row_to_json(v) INTO result FROM (
    SELECT m.id, m.challenge_id, m.player1_id, m.player2_id, m.game_type, m.status, m.stake, m.currency, m.is_private,
           m.scheduled_time, m.created_at, m.version, m.state, m.player1_ready_at, m.player2_ready_at, m.started_at,
           m.platform, m.bet_amount, m.winner_id, m.match_format, m.skill_level, m.player1_gamertag, m.player2_gamertag,
           m.room_code, m.completed_at, m.result, m.to_move, m.duration, m.tournament_id, m.ready_by, m.first_seat,
           (SELECT t.name FROM tournaments t WHERE t.id = m.tournament_id) AS tournament_name,
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
END $function$;
