-- Realtime: every event published, numbered per topic, so a client that resumes gets what it missed.

CREATE TABLE realtime_topics (
    topic text PRIMARY KEY,
    version bigint DEFAULT 0 NOT NULL
);

-- The events, by topic and version (a match's events are not stored: the match row numbers them).
CREATE TABLE realtime_events (
    topic text NOT NULL,
    version bigint NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT realtime_events_pkey PRIMARY KEY (topic, version)
);
CREATE INDEX realtime_events_created_at ON realtime_events (created_at);
CREATE TRIGGER realtime_events_notification AFTER INSERT ON realtime_events FOR EACH ROW WHEN ((new.type = 'notification.created')) EXECUTE FUNCTION notifications_from_event();
