-- Private rooms (SPEC §3 Private room, §9): a room waits for a friend who joins by its code,
-- then becomes a match. The stakes live in the ledger: the creator's hold is owned by the room
-- (escrow_holds.room_id) until the join moves it to the match.
--
-- Status changes are UPDATE ... WHERE status = '<from>' under the row lock; the CHECKs refuse
-- rows whose fields disagree with their status.

CREATE TABLE private_rooms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  room_code text NOT NULL CHECK (room_code ~ '^[A-Z0-9]{6}$'),
  creator_id uuid NOT NULL REFERENCES users (id),
  joiner_id uuid REFERENCES users (id),
  game_type text NOT NULL CHECK (game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors')),
  -- Whole units each player stakes.
  bet_tier integer NOT NULL DEFAULT 20 CHECK (bet_tier IN (5, 10, 20, 50, 100)),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  message text CHECK (length(message) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'waiting_for_player'
    CHECK (status IN ('waiting_for_player', 'both_joined', 'match_created', 'cancelled', 'expired')),
  match_id uuid REFERENCES matches (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  closed_at timestamptz,
  CONSTRAINT private_rooms_not_own CHECK (joiner_id IS NULL OR joiner_id <> creator_id),
  CONSTRAINT private_rooms_waiting_empty CHECK (status <> 'waiting_for_player' OR (joiner_id IS NULL AND match_id IS NULL)),
  CONSTRAINT private_rooms_match_made CHECK (status <> 'match_created' OR (joiner_id IS NOT NULL AND match_id IS NOT NULL)),
  CONSTRAINT private_rooms_closed CHECK ((status IN ('cancelled', 'expired')) = (closed_at IS NOT NULL))
);

-- A code names one room for good (31^6 codes): an old link finds its expired room, not a new one.
CREATE UNIQUE INDEX private_rooms_code_key ON private_rooms (room_code);
-- One active room per creator (SPEC §9), whoever races to open a second one.
CREATE UNIQUE INDEX private_rooms_one_active ON private_rooms (creator_id) WHERE status IN ('waiting_for_player', 'both_joined');
-- The maintenance job: waiting rooms by expiry.
CREATE INDEX private_rooms_waiting_expiry ON private_rooms (expires_at) WHERE status = 'waiting_for_player';
CREATE INDEX private_rooms_joiner ON private_rooms (joiner_id) WHERE joiner_id IS NOT NULL;
-- Abandoned private matches, for the maintenance job.
CREATE INDEX matches_private_waiting ON matches ((coalesce(scheduled_time, created_at))) WHERE is_private AND challenge_id IS NULL AND status IN ('pending', 'accepted');
