-- arena_write_json (007) again, with its match update driven by the primary key whatever the
-- statistics say: PL/pgSQL keeps a generic plan, and one chosen while the table was small joined
-- the batch to a sequential scan of every match (seen in the move bench: each batch read the
-- whole table). `m.id = ANY (ids)` makes the index the only sensible path.
CREATE OR REPLACE FUNCTION arena_write_json(p_batch json, OUT applied uuid[], OUT versions bigint[])
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  n_changes int := json_array_length(p_batch -> 'changes');
  ids uuid[];
  n_events int := json_array_length(p_batch -> 'events');
  keep int[];
  published bigint[];
BEGIN
  SELECT array_agg((c ->> 'id')::uuid) INTO ids FROM json_array_elements(p_batch -> 'changes') AS c;
  WITH u AS (
    UPDATE matches m
       SET status = x.status, state = coalesce(x.state::jsonb, m.state), version = x."to",
           player1_ready_at = x.ready1, player2_ready_at = x.ready2, started_at = x.started,
           deadline_at = x.deadline, game_data = coalesce(x."gameData"::jsonb, m.game_data), updated_at = now()
      FROM json_to_recordset(p_batch -> 'changes')
           AS x (id uuid, "from" int, "to" int, status text, state json, ready1 timestamptz, ready2 timestamptz,
                 started timestamptz, deadline timestamptz, "gameData" json)
     WHERE m.id = ANY (ids) AND m.id = x.id AND m.version = x."from"
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
