-- Both players' records and ratings for a finish, their profiles locked in id order (arena.repository.ts
-- lockRecords). In a function for its plan: as a statement, the join was planned again at every finish
-- (a custom plan for the id array, ~0.3–0.9 ms of PostgreSQL's CPU, more than it takes to run).
CREATE OR REPLACE FUNCTION arena_lock_records(p_ids uuid[], p_game text)
 RETURNS TABLE (id uuid, wins integer, losses integer, streak integer, rating double precision, rd double precision,
                volatility double precision)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT p.id, p.wins, p.losses, p.streak, r.rating, r.rd, r.volatility
      FROM profiles p LEFT JOIN ratings r ON r.user_id = p.id AND r.game = p_game
     WHERE p.id = ANY (p_ids) ORDER BY p.id FOR UPDATE OF p;
END $function$;
