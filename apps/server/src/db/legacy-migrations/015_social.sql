-- Social: friendships and follows (one table, one small state machine) and presence.
--
-- A link is a request until the player it is addressed to accepts it:
--   pending -> accepted            (accept, by to_id only: the service checks, the trigger keeps the order)
--   pending -> (deleted)           (decline by to_id, cancel by from_id)
--   accepted -> (deleted)          (unfriend by either, unfollow by from_id)
-- A friendship is mutual, so there is at most one friend link per pair whichever way it was asked.

CREATE TABLE social_links (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('friend', 'follow')),
  from_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  to_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted')),
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  CHECK (from_id <> to_id),
  CHECK ((status = 'accepted') = (accepted_at IS NOT NULL))
);
CREATE UNIQUE INDEX social_links_follow_pair ON social_links (from_id, to_id) WHERE kind = 'follow';
CREATE UNIQUE INDEX social_links_friend_pair ON social_links (LEAST(from_id, to_id), GREATEST(from_id, to_id)) WHERE kind = 'friend';
CREATE INDEX social_links_to ON social_links (to_id, kind, status);
CREATE INDEX social_links_from ON social_links (from_id, kind, status);

CREATE OR REPLACE FUNCTION social_links_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind <> OLD.kind OR NEW.from_id <> OLD.from_id OR NEW.to_id <> OLD.to_id
     OR NOT (OLD.status = 'pending' AND NEW.status = 'accepted') THEN
    RAISE EXCEPTION 'social link %: % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER social_links_transition BEFORE UPDATE ON social_links FOR EACH ROW EXECUTE FUNCTION social_links_transition();

-- Presence: every server process writes the players with an open, signed-in realtime socket on
-- it every few seconds; a player is online while last_seen_at is recent. online_since marks the
-- start of the current stretch online (the player_online notification is sent when it begins).
CREATE TABLE presence (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  last_seen_at timestamptz NOT NULL,
  online_since timestamptz NOT NULL
);
CREATE INDEX presence_last_seen ON presence (last_seen_at);
