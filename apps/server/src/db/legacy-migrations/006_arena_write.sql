-- The arena's writes as functions, so their plans are kept per connection (statements this size
-- cost about a millisecond to plan, more than they take to run) and each costs one round trip.

-- Publishes many realtime events at once: topic versions are counted per topic (several events
-- on one topic get consecutive versions, in the order given). Answers each event's version, in
-- order. The caller sends the NOTIFYs after the commit (Queryable.notifyAfterCommit).
CREATE FUNCTION realtime_publish_many(p_topics text[], p_types text[], p_payloads text[]) RETURNS bigint[]
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  result bigint[];
BEGIN
  IF coalesce(array_length(p_topics, 1), 0) = 0 THEN
    RETURN '{}';
  END IF;
  WITH ev AS MATERIALIZED (
    SELECT x.ord, x.topic, x.type, x.payload
      FROM unnest(p_topics, p_types, p_payloads) WITH ORDINALITY AS x (topic, type, payload, ord)
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
    SELECT n.topic, n.version, n.type, n.payload::jsonb FROM numbered n
  )
  SELECT array_agg(n.version ORDER BY n.ord) INTO result FROM numbered n;
  RETURN result;
END $$;

-- The group-committed write of arena.writer.ts: the version-checked changes of many matches,
-- the moves of those whose version still matched, and their events. Answers the matches
-- applied and, for each event in the order given, its topic version (NULL when its match was
-- not applied).
CREATE FUNCTION arena_write_batch(
  p_ids uuid[], p_from int[], p_to int[], p_status text[], p_state text[], p_ready1 timestamptz[], p_ready2 timestamptz[],
  p_started timestamptz[], p_deadline timestamptz[], p_game_data text[],
  m_match uuid[], m_seq int[], m_game int[], m_seat smallint[], m_move text[], m_notation text[], m_at timestamptz[],
  m_r0 int[], m_r1 int[], m_elapsed int[],
  e_match uuid[], e_topic text[], e_type text[], e_payload text[],
  OUT applied uuid[], OUT versions bigint[]
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  n_events int := coalesce(array_length(e_topic, 1), 0);
  keep int[];
  published bigint[];
BEGIN
  WITH u AS (
    UPDATE matches m
       SET status = x.status, state = coalesce(x.state::jsonb, m.state), version = x.to_version,
           player1_ready_at = x.ready1, player2_ready_at = x.ready2, started_at = x.started_at,
           deadline_at = x.deadline_at, game_data = coalesce(x.game_data::jsonb, m.game_data), updated_at = now()
      FROM unnest(p_ids, p_from, p_to, p_status, p_state, p_ready1, p_ready2, p_started, p_deadline, p_game_data)
           AS x (id, from_version, to_version, status, state, ready1, ready2, started_at, deadline_at, game_data)
     WHERE m.id = x.id AND m.version = x.from_version
    RETURNING m.id
  )
  SELECT coalesce(array_agg(u.id), '{}') INTO applied FROM u;

  IF coalesce(array_length(applied, 1), 0) = coalesce(array_length(p_ids, 1), 0) THEN
    -- Every change applied (the usual case): all moves and events go.
    INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
    SELECT x.match_id, x.seq, x.game_index, x.seat, x.move::jsonb, x.notation, x.created_at, ARRAY[x.r0, x.r1], x.elapsed
      FROM unnest(m_match, m_seq, m_game, m_seat, m_move, m_notation, m_at, m_r0, m_r1, m_elapsed)
           AS x (match_id, seq, game_index, seat, move, notation, created_at, r0, r1, elapsed);
    versions := realtime_publish_many(e_topic, e_type, e_payload);
    RETURN;
  END IF;

  -- Some were stale: only the applied matches' moves and events.
  INSERT INTO match_moves (match_id, seq, game_index, seat, move, notation, created_at, remaining_ms, elapsed_ms)
  SELECT x.match_id, x.seq, x.game_index, x.seat, x.move::jsonb, x.notation, x.created_at, ARRAY[x.r0, x.r1], x.elapsed
    FROM unnest(m_match, m_seq, m_game, m_seat, m_move, m_notation, m_at, m_r0, m_r1, m_elapsed)
         AS x (match_id, seq, game_index, seat, move, notation, created_at, r0, r1, elapsed)
   WHERE x.match_id = ANY (applied);
  SELECT coalesce(array_agg(x.ord ORDER BY x.ord), '{}') INTO keep
    FROM unnest(e_match) WITH ORDINALITY AS x (match_id, ord)
   WHERE x.match_id = ANY (applied);
  published := realtime_publish_many(
    ARRAY(SELECT e_topic[k.i] FROM unnest(keep) WITH ORDINALITY AS k (i, ord) ORDER BY k.ord),
    ARRAY(SELECT e_type[k.i] FROM unnest(keep) WITH ORDINALITY AS k (i, ord) ORDER BY k.ord),
    ARRAY(SELECT e_payload[k.i] FROM unnest(keep) WITH ORDINALITY AS k (i, ord) ORDER BY k.ord));
  versions := array_fill(NULL::bigint, ARRAY[n_events]);
  FOR j IN 1 .. coalesce(array_length(keep, 1), 0) LOOP
    versions[keep[j]] := published[j];
  END LOOP;
END $$;
