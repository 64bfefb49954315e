-- Notifications (SPEC §3 Notification, preferences, analytics; §4; §9).
--
-- A notification is made in the transaction of the event it describes, as a `notification.created`
-- event on its user's topic (realtime_events): the trigger below stores the row from that event.
-- So the event and the row are one write: whatever path publishes the event (notify() in a
-- service's transaction, or the arena's group-commit writer, one statement per batch), the row
-- exists exactly when the event does, and a rolled-back event leaves neither.

CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN (
    'match_invitation', 'match_confirmed', 'match_starting_soon', 'match_reminder',
    'match_ready', 'match_in_progress', 'match_move_made', 'match_started',
    'match_completed', 'match_disputed', 'match_forfeit', 'challenge_accepted',
    'challenge_created', 'challenge_expired', 'challenge_declined', 'challenge_reminder',
    'payment_received', 'payment_sent', 'credits_earned', 'credits_deducted',
    'escrow_released', 'friend_request', 'friend_accepted', 'follow_request',
    'follow_accepted', 'player_online', 'player_joined_room', 'player_joined_challenge',
    'player_joined_pool_challenge', 'system_announcement', 'maintenance_notice', 'feature_update',
    'account_update', 'security_alert')),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  message text NOT NULL CHECK (length(message) <= 2000),
  category text NOT NULL CHECK (category IN ('match', 'challenge', 'financial', 'social', 'system')),
  priority text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'critical')),
  status text NOT NULL DEFAULT 'unread' CHECK (status IN ('unread', 'read', 'archived', 'dismissed')),
  read boolean NOT NULL DEFAULT false,
  read_at timestamptz,
  urgent boolean NOT NULL DEFAULT false,
  silent boolean NOT NULL DEFAULT false,
  -- Dismissing a persistent notification only marks it read.
  persistent boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  archived_at timestamptz,
  -- References kept as plain ids: a notification outlives nothing it names, and a foreign key
  -- would lock the match row in the arena's hot path.
  match_id uuid,
  challenge_id uuid,
  creator_id uuid,
  metadata jsonb,
  actions jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(actions) = 'array'),
  target_url text,
  -- Bumped on every change; clients keep the highest.
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  -- Set by the one process that hands the committed notification to the deliverers (Web Push).
  delivery_claimed_at timestamptz,
  CONSTRAINT notifications_read_at CHECK (read = (read_at IS NOT NULL)),
  CONSTRAINT notifications_unread CHECK (status <> 'unread' OR NOT read),
  CONSTRAINT notifications_read CHECK (status <> 'read' OR read),
  CONSTRAINT notifications_urgent CHECK (urgent = (priority IN ('high', 'critical')))
);

-- A user's list, newest first; the active ones (what the bell counts and the 50 cap counts).
CREATE INDEX notifications_user_created ON notifications (user_id, created_at DESC);
CREATE INDEX notifications_user_active ON notifications (user_id, created_at DESC) WHERE status IN ('unread', 'read');
-- The cleanup job walks by age.
CREATE INDEX notifications_created ON notifications (created_at);
-- "Your turn" is one unread notification per match and player at a time.
CREATE INDEX notifications_unread_match ON notifications (user_id, match_id, type) WHERE status = 'unread' AND match_id IS NOT NULL;

-- unread -> read | archived | dismissed; read -> archived | dismissed; archived -> dismissed.
CREATE FUNCTION notifications_status_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (
    ('unread', 'read'), ('unread', 'archived'), ('unread', 'dismissed'),
    ('read', 'archived'), ('read', 'dismissed'), ('archived', 'dismissed')
  ) THEN
    RAISE EXCEPTION 'notification %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER notifications_status_transition BEFORE UPDATE OF status ON notifications
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION notifications_status_transition();

-- The row of a `notification.created` event (its payload is the client's Notification, built
-- from the type's template in packages/domain/src/notifications). At most 50 active per user:
-- the oldest beyond are archived in the same transaction.
CREATE FUNCTION notifications_from_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
END $$;

-- WHEN is checked without calling the function: the arena's move events pay next to nothing.
CREATE TRIGGER realtime_events_notification AFTER INSERT ON realtime_events
  FOR EACH ROW WHEN (NEW.type = 'notification.created') EXECUTE FUNCTION notifications_from_event();

-- SPEC §3: per user, stored as JSON text; one row, upserted.
CREATE TABLE user_notification_preferences (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  preferences text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- SPEC §3 "Notification analytics record": user_id, event_type, event_data, created_at.
CREATE TABLE notification_analytics (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event_type text NOT NULL CHECK (length(event_type) BETWEEN 1 AND 64),
  event_data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_analytics_user ON notification_analytics (user_id, created_at DESC);
