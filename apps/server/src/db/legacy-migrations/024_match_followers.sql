-- A match's events are not stored (docs/decisions.md, "A move's write is its move"), and they
-- travel whole to the other processes only when one of them follows the match: a hub records
-- itself in `followers` (its origin) when it starts following match:{id}, in the statement that
-- reads the match's version for the socket (arena.repository.ts followMatch). arena_write answers,
-- besides, which applied matches another process follows (`remote`: a follower other than the
-- batch's origin). Both write the match row, so they are ordered: a follower recorded before a
-- change is in that change's answer, and one recorded after it reads a version that already
-- includes the change. A process that stops following stays recorded (the events travel for
-- nothing until the match ends); one that follows again finds itself there.

ALTER TABLE matches ADD COLUMN followers text[];

-- p_batch: {"origin": text or null, "changes": [...], "moves": [...], "events": [...]} as in 022.
DROP FUNCTION arena_write(jsonb);
CREATE FUNCTION arena_write(p_batch jsonb, OUT applied uuid[], OUT versions bigint[], OUT remote uuid[])
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
    RETURNING m.id, m.followers
  )
  SELECT coalesce(array_agg(u.id), '{}'),
         coalesce(array_agg(u.id) FILTER (WHERE EXISTS (SELECT 1 FROM unnest(u.followers) AS f WHERE f IS DISTINCT FROM p_batch ->> 'origin')), '{}')
    INTO applied, remote FROM u;

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
