-- Challenges, their pools and participants, and the matches an accepted challenge becomes.
--
-- Status changes are guarded in SQL: every transition is an UPDATE ... WHERE status = '<from>'
-- made under the row lock taken by SELECT ... FOR UPDATE, and the CHECKs below refuse any row
-- whose fields disagree with its status. The stakes themselves live in the ledger
-- (escrow_holds owned by the challenge, then by its match); nothing here holds money.

CREATE TABLE challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creator_id uuid NOT NULL REFERENCES users (id),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 80),
  game text NOT NULL CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo',
    'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')),
  platform text NOT NULL CHECK (platform IN ('pc', 'xbox', 'playstation', 'mobile', 'web')),
  -- Whole units per player (the ledger holds stake × 100 minor units).
  stake integer NOT NULL CHECK (stake BETWEEN 1 AND 1000),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  skill_level text NOT NULL DEFAULT 'any' CHECK (skill_level IN ('any', 'beginner', 'intermediate', 'advanced', 'expert')),
  match_format text NOT NULL DEFAULT 'Best of 3',
  max_participants integer NOT NULL DEFAULT 2 CHECK (max_participants BETWEEN 2 AND 4),
  -- Minutes (the game's match length); expires_at reads it as hours, as SPEC §9 states.
  duration integer NOT NULL CHECK (duration BETWEEN 1 AND 600),
  description text CHECK (length(description) <= 200),
  rules jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(rules) = 'array'),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'accepted', 'completed', 'cancelled', 'expired')),
  -- Private challenges only: the 6-character share code.
  code text CHECK (code ~ '^[A-Z0-9]{6}$'),
  expires_at timestamptz,
  scheduled_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  accepted_by uuid REFERENCES users (id),
  accepted_at timestamptz,
  match_id uuid,
  closed_at timestamptz,
  -- When the creator was told it expires within the 5-minute preview window (once).
  expiry_warned_at timestamptz,
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  likes integer NOT NULL DEFAULT 0 CHECK (likes >= 0),
  creator_gamertag text CHECK (length(creator_gamertag) <= 64),
  -- The creator's Idempotency-Key and a hash of the request it came with: a replay of the
  -- same request returns this challenge, the same key with another request is refused.
  idempotency_key text CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  request_hash text,
  CONSTRAINT challenges_not_own CHECK (accepted_by IS NULL OR accepted_by <> creator_id),
  -- Open: nobody accepted, no match. Accepted or completed: both set.
  CONSTRAINT challenges_open_unclaimed CHECK (status <> 'open' OR (accepted_by IS NULL AND match_id IS NULL)),
  CONSTRAINT challenges_accepted_claimed CHECK (status NOT IN ('accepted', 'completed') OR (accepted_by IS NOT NULL AND match_id IS NOT NULL)),
  CONSTRAINT challenges_closed CHECK ((status IN ('cancelled', 'expired', 'completed')) = (closed_at IS NOT NULL)),
  CONSTRAINT challenges_pool_private CHECK (max_participants = 2 OR code IS NOT NULL),
  CONSTRAINT challenges_key_hash CHECK ((idempotency_key IS NULL) = (request_hash IS NULL))
);

CREATE UNIQUE INDEX challenges_code_key ON challenges (code) WHERE code IS NOT NULL;
CREATE UNIQUE INDEX challenges_idempotency_key ON challenges (creator_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- The marketplace: open public challenges, newest first. Partial, so its size is the number of
-- open public challenges however many closed ones pile up; the expiry test is a filter on it.
CREATE INDEX challenges_open_public ON challenges (created_at DESC, id DESC)
  WHERE status = 'open' AND match_id IS NULL AND accepted_by IS NULL AND code IS NULL;
-- The expiry job: open challenges by expiry time.
CREATE INDEX challenges_open_expiry ON challenges (expires_at) WHERE status = 'open' AND expires_at IS NOT NULL;
-- A player's own challenges (mine, expiring soon) and the ones they accepted.
CREATE INDEX challenges_creator ON challenges (creator_id, created_at DESC);
CREATE INDEX challenges_accepted_by ON challenges (accepted_by, created_at DESC) WHERE accepted_by IS NOT NULL;

-- A private challenge for more than 2 players collects its players in a pool.
CREATE TABLE challenge_pools (
  challenge_id uuid PRIMARY KEY REFERENCES challenges (id),
  max_participants integer NOT NULL CHECK (max_participants BETWEEN 3 AND 4),
  stake integer NOT NULL CHECK (stake BETWEEN 1 AND 1000),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Players who joined a pool besides its creator (SPEC §9: the count is 1 plus these).
CREATE TABLE challenge_participants (
  challenge_id uuid NOT NULL REFERENCES challenges (id),
  user_id uuid NOT NULL REFERENCES users (id),
  status text NOT NULL DEFAULT 'joined' CHECK (status IN ('joined', 'left')),
  gamertag text CHECK (length(gamertag) <= 64),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (challenge_id, user_id)
);

CREATE INDEX challenge_participants_user ON challenge_participants (user_id);

CREATE TABLE matches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- NULL for a match made from a private room.
  challenge_id uuid REFERENCES challenges (id),
  player1_id uuid NOT NULL REFERENCES users (id),
  player2_id uuid NOT NULL REFERENCES users (id),
  winner_id uuid REFERENCES users (id),
  game_type text NOT NULL CHECK (game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo',
    'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')),
  platform text NOT NULL CHECK (platform IN ('pc', 'xbox', 'playstation', 'mobile', 'web')),
  -- Whole units each player staked; bet_amount is SPEC's second name for the same figure.
  stake integer NOT NULL CHECK (stake > 0),
  bet_amount integer NOT NULL CHECK (bet_amount = stake),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'in_progress', 'completed', 'disputed', 'cancelled')),
  match_format text NOT NULL DEFAULT 'Best of 3',
  skill_level text NOT NULL DEFAULT 'any',
  scheduled_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  player1_gamertag text,
  player2_gamertag text,
  game_data jsonb NOT NULL DEFAULT '{}',
  is_private boolean NOT NULL DEFAULT false,
  room_code text,
  -- One match per challenge, whoever races to create it.
  CONSTRAINT matches_challenge_key UNIQUE (challenge_id),
  CONSTRAINT matches_two_players CHECK (player1_id <> player2_id),
  CONSTRAINT matches_winner_is_player CHECK (winner_id IS NULL OR winner_id IN (player1_id, player2_id))
);

CREATE INDEX matches_player1 ON matches (player1_id, scheduled_time);
CREATE INDEX matches_player2 ON matches (player2_id, scheduled_time);

ALTER TABLE challenges ADD CONSTRAINT challenges_match_fk FOREIGN KEY (match_id) REFERENCES matches (id);
