-- Notifications: stored from realtime events (trigger), with preferences and delivery analytics.

-- SPEC §3 notifications, stored from realtime `notification.created` events by a trigger.
CREATE TABLE notifications (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type text NOT NULL CHECK (type IN ('match_invitation', 'match_confirmed', 'match_starting_soon', 'match_reminder', 'match_ready', 'match_in_progress', 'match_move_made', 'match_started', 'match_completed', 'match_disputed', 'match_forfeit', 'challenge_accepted', 'challenge_created', 'challenge_expired', 'challenge_declined', 'challenge_reminder', 'payment_received', 'payment_sent', 'credits_earned', 'credits_deducted', 'escrow_released', 'friend_request', 'friend_accepted', 'follow_request', 'follow_accepted', 'player_online', 'player_joined_room', 'player_joined_challenge', 'player_joined_pool_challenge', 'system_announcement', 'maintenance_notice', 'feature_update', 'account_update', 'security_alert')),
    title text NOT NULL CHECK ((length(title) >= 1) AND (length(title) <= 200)),
    message text NOT NULL CHECK (length(message) <= 2000),
    category text NOT NULL CHECK (category IN ('match', 'challenge', 'financial', 'social', 'system')),
    priority text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'critical')),
    status text DEFAULT 'unread' NOT NULL CHECK (status IN ('unread', 'read', 'archived', 'dismissed')),
    read boolean DEFAULT false NOT NULL,
    read_at timestamptz,
    urgent boolean DEFAULT false NOT NULL,
    silent boolean DEFAULT false NOT NULL,
    persistent boolean DEFAULT false NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL,
    expires_at timestamptz,
    archived_at timestamptz,
    match_id uuid,
    challenge_id uuid,
    creator_id uuid,
    metadata jsonb,
    actions jsonb DEFAULT '[]'::jsonb NOT NULL CHECK (jsonb_typeof(actions) = 'array'),
    target_url text,
    version integer DEFAULT 1 NOT NULL CHECK (version >= 1),
    delivery_claimed_at timestamptz,
    CONSTRAINT notifications_read CHECK ((status <> 'read') OR read),
    CONSTRAINT notifications_read_at CHECK (read = (read_at IS NOT NULL)),
    CONSTRAINT notifications_unread CHECK ((status <> 'unread') OR (NOT read)),
    CONSTRAINT notifications_urgent CHECK (urgent = (priority IN ('high', 'critical')))
);
CREATE INDEX notifications_created ON notifications (created_at);
CREATE INDEX notifications_unread_match ON notifications (user_id, match_id, type) WHERE ((status = 'unread') AND (match_id IS NOT NULL));
CREATE INDEX notifications_user_active ON notifications (user_id, created_at DESC) WHERE (status IN ('unread', 'read'));
CREATE INDEX notifications_user_created ON notifications (user_id, created_at DESC);
CREATE TRIGGER notifications_status_transition BEFORE UPDATE OF status ON notifications FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION notifications_status_transition();

-- SPEC §3: per user, stored as JSON text; one row, upserted.
CREATE TABLE user_notification_preferences (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    preferences text NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL
);

-- SPEC §3 "Notification analytics record": user_id, event_type, event_data, created_at.
CREATE TABLE notification_analytics (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    event_type text NOT NULL CHECK ((length(event_type) >= 1) AND (length(event_type) <= 64)),
    event_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL
);
CREATE INDEX notification_analytics_user ON notification_analytics (user_id, created_at DESC);
