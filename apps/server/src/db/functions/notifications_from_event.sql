-- The rows of a statement's `notification.created` events (each payload is the client's Notification,
-- built from the type's template in packages/domain/src/notifications), in one insert: a finished
-- match's six or a move batch's readies cost one statement, not two each (migration 031). At most
-- 50 active per user: the oldest beyond are archived in the same transaction.
CREATE OR REPLACE FUNCTION notifications_from_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO notifications (id, user_id, type, title, message, category, priority, status, read, read_at, urgent, silent,
                             persistent, created_at, expires_at, match_id, challenge_id, creator_id, metadata, actions,
                             target_url, version)
  SELECT (p ->> 'id')::uuid, (p ->> 'userId')::uuid, p ->> 'type', p ->> 'title', p ->> 'message', p ->> 'category',
         p ->> 'priority', coalesce(p ->> 'status', 'unread'), coalesce((p ->> 'read')::boolean, false),
         (p ->> 'readAt')::timestamptz, coalesce((p ->> 'urgent')::boolean, false), coalesce((p ->> 'silent')::boolean, false),
         coalesce((p ->> 'persistent')::boolean, false), coalesce((p ->> 'createdAt')::timestamptz, now()),
         (p ->> 'expiresAt')::timestamptz, (p ->> 'matchId')::uuid, (p ->> 'challengeId')::uuid, (p ->> 'creatorId')::uuid,
         CASE WHEN jsonb_typeof(p -> 'metadata') = 'object' THEN p -> 'metadata' END,
         coalesce(p -> 'actions', '[]'), p ->> 'targetUrl', coalesce((p ->> 'version')::integer, 1)
    FROM (SELECT e.payload AS p FROM added e WHERE e.type = 'notification.created') n
  ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  UPDATE notifications SET status = 'archived', archived_at = now(), version = version + 1
   WHERE id IN (SELECT beyond.id
                  FROM (SELECT DISTINCT (e.payload ->> 'userId')::uuid AS user_id FROM added e
                         WHERE e.type = 'notification.created') u
                 CROSS JOIN LATERAL (SELECT x.id FROM notifications x
                                      WHERE x.user_id = u.user_id AND x.status IN ('unread', 'read')
                                      ORDER BY x.created_at DESC, x.id DESC OFFSET 50) beyond);
  RETURN NULL;
END $function$;
