-- The arena's group-committed write taking the whole batch as ONE json parameter: JSON.stringify
-- on one side and one JSON parse on the other cost far less than two dozen text arrays whose
-- every element is escaped, sent and parsed as an array literal. Same effect as
-- arena_write_batch (006): answers the matches applied and each event's topic version, in the
-- order given (NULL when its match was not applied).
--
-- p_batch: {"changes": [{id, from, to, status, state, ready1, ready2, started, deadline, gameData}],
--           "moves": [{match, seq, game, seat, move, notation, at, r0, r1, elapsed}],
--           "events": [{match, topic, type, payload}]}
-- state, gameData, move and payload are JSON values (not text); null state or gameData: unchanged.
CREATE FUNCTION arena_write_json(p_batch json, OUT applied uuid[], OUT versions bigint[])
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  n_changes int := json_array_length(p_batch -> 'changes');
  n_events int := json_array_length(p_batch -> 'events');
  keep int[];
  published bigint[];
BEGIN
  WITH u AS (
    UPDATE matches m
       SET status = x.status, state = coalesce(x.state::jsonb, m.state), version = x."to",
           player1_ready_at = x.ready1, player2_ready_at = x.ready2, started_at = x.started,
           deadline_at = x.deadline, game_data = coalesce(x."gameData"::jsonb, m.game_data), updated_at = now()
      FROM json_to_recordset(p_batch -> 'changes')
           AS x (id uuid, "from" int, "to" int, status text, state json, ready1 timestamptz, ready2 timestamptz,
                 started timestamptz, deadline timestamptz, "gameData" json)
     WHERE m.id = x.id AND m.version = x."from"
    RETURNING m.id
  )
  SELECT coalesce(array_agg(u.id), '{}') INTO applied FROM u;

  INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
  SELECT x.match, x.seq, x.game, x.seat, x.move::jsonb, x.notation, x.at, ARRAY[x.r0, x.r1], x.elapsed
    FROM json_to_recordset(p_batch -> 'moves')
         AS x (match uuid, seq int, game int, seat smallint, move json, notation text, at timestamptz, r0 int, r1 int, elapsed int)
   WHERE coalesce(array_length(applied, 1), 0) = n_changes OR x.match = ANY (applied);

  IF coalesce(array_length(applied, 1), 0) = n_changes THEN
    -- Every change applied (the usual case): all events go.
    SELECT realtime_publish_many(array_agg(x.topic ORDER BY x.ord), array_agg(x.type ORDER BY x.ord), array_agg(x.payload::text ORDER BY x.ord))
      INTO versions
      FROM ROWS FROM (json_to_recordset(p_batch -> 'events') AS (match uuid, topic text, type text, payload json))
           WITH ORDINALITY AS x (match, topic, type, payload, ord);
    versions := coalesce(versions, '{}');
    RETURN;
  END IF;

  -- Some were stale: only the applied matches' events.
  SELECT coalesce(array_agg(x.ord::int ORDER BY x.ord), '{}'),
         realtime_publish_many(array_agg(x.topic ORDER BY x.ord), array_agg(x.type ORDER BY x.ord), array_agg(x.payload::text ORDER BY x.ord))
    INTO keep, published
    FROM ROWS FROM (json_to_recordset(p_batch -> 'events') AS (match uuid, topic text, type text, payload json))
           WITH ORDINALITY AS x (match, topic, type, payload, ord)
   WHERE x.match = ANY (applied);
  versions := array_fill(NULL::bigint, ARRAY[n_events]);
  FOR j IN 1 .. coalesce(array_length(keep, 1), 0) LOOP
    versions[keep[j]] := published[j];
  END LOOP;
END $$;
