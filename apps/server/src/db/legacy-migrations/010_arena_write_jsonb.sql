-- The arena's group-committed write, third form, from what a profile of the move bench showed
-- in PostgreSQL: a quarter of its time re-parsing the batch (each `->` on a json value lexes the
-- whole text again, every state in it included) and a fifth planning (PL/pgSQL kept choosing
-- custom plans and so planned every call). So: the batch is jsonb, parsed once, its states and
-- payloads reaching their columns already as jsonb; and the plans are generic, made once per
-- connection (every statement here is driven by a primary key or a unique index).

-- realtime_publish_many (006) for events given as one jsonb array of {topic, type, payload}.
CREATE FUNCTION realtime_publish_jsonb(p_events jsonb) RETURNS bigint[]
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  result bigint[];
BEGIN
  IF p_events IS NULL OR jsonb_array_length(p_events) = 0 THEN
    RETURN '{}';
  END IF;
  WITH ev AS MATERIALIZED (
    SELECT x.ord, x.topic, x.type, x.payload
      FROM ROWS FROM (jsonb_to_recordset(p_events) AS (topic text, type text, payload jsonb))
           WITH ORDINALITY AS x (topic, type, payload, ord)
  ),
  counts AS (SELECT ev.topic, count(*)::bigint AS n FROM ev GROUP BY ev.topic),
  t AS (
    -- In topic order: two publishers never wait on each other's topic rows in a cycle.
    INSERT INTO realtime_topics AS rt (topic, version)
    SELECT c.topic, c.n FROM counts c ORDER BY c.topic
    ON CONFLICT (topic) DO UPDATE SET version = rt.version + EXCLUDED.version
    RETURNING rt.topic, rt.version
  ),
  numbered AS MATERIALIZED (
    SELECT ev.ord, ev.topic, ev.type, ev.payload,
           t.version - c.n + row_number() OVER (PARTITION BY ev.topic ORDER BY ev.ord) AS version
      FROM ev JOIN t ON t.topic = ev.topic JOIN counts c ON c.topic = ev.topic
  ),
  ins AS (
    INSERT INTO realtime_events (topic, version, type, payload)
    SELECT n.topic, n.version, n.type, n.payload FROM numbered n
  )
  SELECT array_agg(n.version ORDER BY n.ord) INTO result FROM numbered n;
  RETURN result;
END $$;

-- p_batch: {"changes": [{id, from, to, status, state, ready1, ready2, started, deadline, gameData}],
--           "moves": [{match, seq, game, seat, move, notation, at, r0, r1, elapsed}],
--           "events": [{match, topic, type, payload}]}
-- A null state or gameData leaves the column as it is. Answers the matches applied and, for
-- each event in the order given, its topic version (NULL when its match was not applied).
CREATE FUNCTION arena_write(p_batch jsonb, OUT applied uuid[], OUT versions bigint[])
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
           deadline_at = x.deadline, game_data = coalesce(x."gameData", m.game_data), updated_at = now()
      FROM jsonb_to_recordset(changes)
           AS x (id uuid, "from" int, "to" int, status text, state jsonb, ready1 timestamptz, ready2 timestamptz,
                 started timestamptz, deadline timestamptz, "gameData" jsonb)
     WHERE m.id = ANY (ids) AND m.id = x.id AND m.version = x."from"
    RETURNING m.id
  )
  SELECT coalesce(array_agg(u.id), '{}') INTO applied FROM u;

  INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
  SELECT x.match, x.seq, x.game, x.seat, x.move, x.notation, x.at, ARRAY[x.r0, x.r1], x.elapsed
    FROM jsonb_to_recordset(p_batch -> 'moves')
         AS x (match uuid, seq int, game int, seat smallint, move jsonb, notation text, at timestamptz, r0 int, r1 int, elapsed int)
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
