-- The row of a `notification.created` event (its payload is the client's Notification, built
-- from the type's template in packages/domain/src/notifications). At most 50 active per user:
-- the oldest beyond are archived in the same transaction.
CREATE OR REPLACE FUNCTION notifications_from_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  p jsonb := NEW.payload;
  uid uuid := (p ->> 'userId')::uuid;
BEGIN
  INSERT INTO notifications (id, user_id, type, title, message, category, priority, status, read, read_at, urgent, silent,
                             persistent, created_at, expires_at, match_id, challenge_id, creator_id, metadata, actions,
                             target_url, version)
  VALUES ((p ->> 'id')::uuid, uid, p ->> 'type', p ->> 'title', p ->> 'message', p ->> 'category', p ->> 'priority',
          coalesce(p ->> 'status', 'unread'), coalesce((p ->> 'read')::boolean, false), (p ->> 'readAt')::timestamptz,
          coalesce((p ->> 'urgent')::boolean, false), coalesce((p ->> 'silent')::boolean, false),
          coalesce((p ->> 'persistent')::boolean, false), coalesce((p ->> 'createdAt')::timestamptz, now()),
          (p ->> 'expiresAt')::timestamptz, (p ->> 'matchId')::uuid, (p ->> 'challengeId')::uuid, (p ->> 'creatorId')::uuid,
          CASE WHEN jsonb_typeof(p -> 'metadata') = 'object' THEN p -> 'metadata' END,
          coalesce(p -> 'actions', '[]'), p ->> 'targetUrl', coalesce((p ->> 'version')::integer, 1))
  ON CONFLICT (id) DO NOTHING;
  UPDATE notifications SET status = 'archived', archived_at = now(), version = version + 1
   WHERE id IN (SELECT id FROM notifications
                 WHERE user_id = uid AND status IN ('unread', 'read')
                 ORDER BY created_at DESC, id DESC OFFSET 50);
  RETURN NULL;
END $function$;
