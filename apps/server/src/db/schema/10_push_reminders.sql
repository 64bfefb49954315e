-- Web push subscriptions and the match reminders they deliver.

-- One row per browser/device: a push endpoint belongs to whoever subscribed with it last.
CREATE TABLE push_subscriptions (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint text NOT NULL UNIQUE CHECK ((length(endpoint) >= 1) AND (length(endpoint) <= 2048)),
    p256dh text NOT NULL CHECK ((length(p256dh) >= 1) AND (length(p256dh) <= 256)),
    auth text NOT NULL CHECK ((length(auth) >= 1) AND (length(auth) <= 64)),
    user_agent text CHECK (length(user_agent) <= 512),
    created_at timestamptz DEFAULT now() NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL,
    last_sent_at timestamptz,
    failures integer DEFAULT 0 NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);

-- SPEC §9: one push per user, match and type within an hour. A row is the last push sent for
-- the key; claiming is one INSERT ... ON CONFLICT DO UPDATE ... WHERE the window has passed, so
-- concurrent senders in several processes agree on who sends.
CREATE TABLE push_dedupe (
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    match_id uuid NOT NULL,
    type text NOT NULL,
    sent_at timestamptz NOT NULL,
    CONSTRAINT push_dedupe_pkey PRIMARY KEY (user_id, match_id, type)
);
CREATE INDEX push_dedupe_sent_at ON push_dedupe (sent_at);

-- Match reminders (SPEC §4 Reminder, §9 Reminders): rows written with the match itself (trigger
-- on matches), processed by a worker that claims due rows with FOR UPDATE SKIP LOCKED.
-- Kinds and offsets are the domain's REMINDERS (@versus/domain/notifications); 'timer' rows are
-- a player's own timings (preferences: match.reminderMinutes), planned by the worker ahead.
CREATE TABLE match_reminders (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id uuid NOT NULL REFERENCES matches(id),
    user_id uuid NOT NULL REFERENCES users(id),
    kind text NOT NULL CHECK (kind IN ('before_1h', 'at_start', 'closing_5m', 'timer')),
    minutes_before integer NOT NULL CHECK ((minutes_before >= -5) AND (minutes_before <= 1440)),
    due_at timestamptz NOT NULL,
    status text DEFAULT 'scheduled' NOT NULL CHECK (status IN ('scheduled', 'sent', 'skipped')),
    outcome text,
    attempts integer DEFAULT 0 NOT NULL,
    last_error text,
    notification_id uuid,
    processed_at timestamptz,
    created_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT match_reminders_once UNIQUE (match_id, user_id, kind, minutes_before),
    CONSTRAINT match_reminders_offsets CHECK (kind = 'timer' OR minutes_before = CASE kind WHEN 'before_1h' THEN 60 WHEN 'at_start' THEN 0 ELSE -5 END),
    CONSTRAINT match_reminders_processed CHECK ((status = 'scheduled') = (processed_at IS NULL))
);
CREATE INDEX match_reminders_due ON match_reminders (due_at) WHERE (status = 'scheduled');
