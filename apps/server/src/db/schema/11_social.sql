-- Social: follows, friends and presence.

-- Friend and follow requests: pending until the other player accepts.
CREATE TABLE social_links (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('friend', 'follow')),
    from_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    to_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status text DEFAULT 'pending' NOT NULL CHECK (status IN ('pending', 'accepted')),
    created_at timestamptz DEFAULT now() NOT NULL,
    accepted_at timestamptz,
    CONSTRAINT social_links_check CHECK (from_id <> to_id),
    CONSTRAINT social_links_check1 CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
);
CREATE UNIQUE INDEX social_links_follow_pair ON social_links (from_id, to_id) WHERE (kind = 'follow');
CREATE UNIQUE INDEX social_links_friend_pair ON social_links (LEAST(from_id, to_id), GREATEST(from_id, to_id)) WHERE (kind = 'friend');
CREATE INDEX social_links_from ON social_links (from_id, kind, status);
CREATE INDEX social_links_to ON social_links (to_id, kind, status);
CREATE TRIGGER social_links_transition BEFORE UPDATE ON social_links FOR EACH ROW EXECUTE FUNCTION social_links_transition();

-- Presence: every server process writes the players with an open, signed-in realtime socket on
-- it every few seconds; a player is online while last_seen_at is recent. online_since marks the
-- start of the current stretch online (the player_online notification is sent when it begins).
CREATE TABLE presence (
    user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_seen_at timestamptz NOT NULL,
    online_since timestamptz NOT NULL
);
CREATE INDEX presence_last_seen ON presence (last_seen_at);
