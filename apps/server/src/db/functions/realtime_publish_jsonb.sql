-- Publishes events given as one jsonb array of {topic, type, payload}: numbers them per topic
-- (realtime_topics) and stores them (realtime_events); returns their versions in order.
CREATE OR REPLACE FUNCTION realtime_publish_jsonb(p_events jsonb)
 RETURNS bigint[]
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
END $function$;
