-- A match with the moves stored after its snapshot (arena.repository.ts findCore). The moves
-- are found by the primary key (match, seq), never by reading the table: on a new database the
-- planner's statistics say match_moves is empty, and a connection's cached plan then kept
-- scanning the whole table (thousands of rows per read) long after it had filled (bench/moves).
CREATE OR REPLACE FUNCTION arena_find_core(p_id uuid)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET enable_seqscan TO 'off'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  result json;
BEGIN
  SELECT json_build_object(
           'id', m.id, 'challenge_id', m.challenge_id, 'player1_id', m.player1_id, 'player2_id', m.player2_id,
           'game_type', m.game_type, 'status', m.status, 'stake', m.stake, 'currency', m.currency, 'is_private', m.is_private,
           'scheduled_time', m.scheduled_time, 'created_at', m.created_at, 'version', m.version, 'state', m.state,
           'player1_ready_at', m.player1_ready_at, 'player2_ready_at', m.player2_ready_at, 'started_at', m.started_at,
           'to_move', m.to_move, 'duration', m.duration, 'match_format', m.match_format, 'tournament_id', m.tournament_id,
           'ready_by', m.ready_by, 'first_seat', m.first_seat,
           'later', (SELECT coalesce(json_agg(json_build_object('seq', mm.seq, 'seat', mm.seat, 'move', mm.move,
                              'created_at', mm.created_at, 'remaining_ms', mm.remaining_ms, 'lag_ms', mm.lag_ms,
                              'premove', mm.premove) ORDER BY mm.seq), '[]')
                       FROM match_moves mm
                      WHERE mm.match_id = m.id AND mm.seq > coalesce((m.state ->> 'seq')::int, 0)))
    INTO result
    FROM matches m WHERE m.id = p_id;
  RETURN result;
END $function$;
