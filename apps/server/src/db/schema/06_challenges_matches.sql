-- Challenges and the matches they become (each refers to the other).

-- A stake offered to anyone (public) or by code (private; more than two players fill a pool).
CREATE TABLE challenges (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    creator_id uuid NOT NULL REFERENCES users(id),
    title text NOT NULL CHECK ((length(title) >= 1) AND (length(title) <= 80)),
    game text NOT NULL CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')),
    platform text NOT NULL CHECK (platform IN ('pc', 'xbox', 'playstation', 'mobile', 'web')),
    stake integer NOT NULL CHECK ((stake >= 1) AND (stake <= 1000)),
    currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
    skill_level text DEFAULT 'any' NOT NULL CHECK (skill_level IN ('any', 'beginner', 'intermediate', 'advanced', 'expert')),
    match_format text DEFAULT 'Best of 3' NOT NULL,
    max_participants integer DEFAULT 2 NOT NULL CHECK ((max_participants >= 2) AND (max_participants <= 4)),
    duration integer NOT NULL CHECK ((duration >= 1) AND (duration <= 600)),
    description text CHECK (length(description) <= 200),
    rules jsonb DEFAULT '[]'::jsonb NOT NULL CHECK (jsonb_typeof(rules) = 'array'),
    status text DEFAULT 'open' NOT NULL CHECK (status IN ('open', 'accepted', 'completed', 'cancelled', 'expired')),
    code text CHECK (code ~ '^[A-Z0-9]{6}$'),
    expires_at timestamptz,
    scheduled_time timestamptz,
    created_at timestamptz DEFAULT now() NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL,
    accepted_by uuid REFERENCES users(id),
    accepted_at timestamptz,
    match_id uuid,
    closed_at timestamptz,
    expiry_warned_at timestamptz,
    views integer DEFAULT 0 NOT NULL CHECK (views >= 0),
    likes integer DEFAULT 0 NOT NULL CHECK (likes >= 0),
    creator_gamertag text CHECK (length(creator_gamertag) <= 64),
    idempotency_key text CHECK ((length(idempotency_key) >= 1) AND (length(idempotency_key) <= 200)),
    request_hash text,
    CONSTRAINT challenges_accepted_claimed CHECK ((status <> ALL (ARRAY['accepted', 'completed'])) OR ((accepted_by IS NOT NULL) AND (match_id IS NOT NULL))),
    CONSTRAINT challenges_closed CHECK ((status IN ('cancelled', 'expired', 'completed')) = (closed_at IS NOT NULL)),
    CONSTRAINT challenges_key_hash CHECK ((idempotency_key IS NULL) = (request_hash IS NULL)),
    CONSTRAINT challenges_not_own CHECK ((accepted_by IS NULL) OR (accepted_by <> creator_id)),
    CONSTRAINT challenges_open_unclaimed CHECK ((status <> 'open') OR ((accepted_by IS NULL) AND (match_id IS NULL))),
    CONSTRAINT challenges_pool_private CHECK ((max_participants = 2) OR (code IS NOT NULL))
);
CREATE INDEX challenges_accepted_by ON challenges (accepted_by, created_at DESC) WHERE (accepted_by IS NOT NULL);
CREATE UNIQUE INDEX challenges_code_key ON challenges (code) WHERE (code IS NOT NULL);
CREATE INDEX challenges_creator ON challenges (creator_id, created_at DESC);
CREATE UNIQUE INDEX challenges_idempotency_key ON challenges (creator_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);
CREATE INDEX challenges_open_expiry ON challenges (expires_at) WHERE ((status = 'open') AND (expires_at IS NOT NULL));
CREATE INDEX challenges_open_public ON challenges (created_at DESC, id DESC) WHERE ((status = 'open') AND (match_id IS NULL) AND (accepted_by IS NULL) AND (code IS NULL));

-- A private challenge for more than 2 players collects its players in a pool.
CREATE TABLE challenge_pools (
    challenge_id uuid PRIMARY KEY REFERENCES challenges(id),
    max_participants integer NOT NULL CHECK ((max_participants >= 3) AND (max_participants <= 4)),
    stake integer NOT NULL CHECK ((stake >= 1) AND (stake <= 1000)),
    currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
    created_at timestamptz DEFAULT now() NOT NULL
);

-- Players who joined a pool besides its creator (SPEC §9: the count is 1 plus these).
CREATE TABLE challenge_participants (
    challenge_id uuid NOT NULL REFERENCES challenges(id),
    user_id uuid NOT NULL REFERENCES users(id),
    status text DEFAULT 'joined' NOT NULL CHECK (status IN ('joined', 'left')),
    gamertag text CHECK (length(gamertag) <= 64),
    joined_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT challenge_participants_pkey PRIMARY KEY (challenge_id, user_id)
);
CREATE INDEX challenge_participants_user ON challenge_participants (user_id);

-- A match between two players. A move rewrites the row in place (HOT) when the page has room
-- and no indexed column changes: so the columns a move touches carry no index (fillfactor 80).
CREATE TABLE matches (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    challenge_id uuid REFERENCES challenges(id),
    player1_id uuid NOT NULL REFERENCES users(id),
    player2_id uuid NOT NULL REFERENCES users(id),
    winner_id uuid REFERENCES users(id),
    game_type text NOT NULL CHECK (game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')),
    platform text NOT NULL CHECK (platform IN ('pc', 'xbox', 'playstation', 'mobile', 'web')),
    stake integer NOT NULL CHECK (stake > 0),
    bet_amount integer NOT NULL,
    currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
    status text DEFAULT 'pending' NOT NULL CHECK (status IN ('pending', 'accepted', 'in_progress', 'completed', 'disputed', 'cancelled')),
    match_format text DEFAULT 'Best of 3' NOT NULL,
    skill_level text DEFAULT 'any' NOT NULL,
    scheduled_time timestamptz,
    created_at timestamptz DEFAULT now() NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL,
    player1_gamertag text,
    player2_gamertag text,
    game_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    is_private boolean DEFAULT false NOT NULL,
    room_code text,
    version integer DEFAULT 0 NOT NULL CHECK (version >= 0),
    state jsonb,
    player1_ready_at timestamptz,
    player2_ready_at timestamptz,
    started_at timestamptz,
    completed_at timestamptz,
    end_reason text CHECK (end_reason IN ('games-won', 'drawn-game-cap', 'resignation', 'forfeit', 'void')),
    result jsonb,
    deadline_at timestamptz,
    to_move smallint[],
    turn_since double precision,
    followers text[],
    CONSTRAINT matches_challenge_key UNIQUE (challenge_id),
    CONSTRAINT matches_check CHECK (bet_amount = stake),
    CONSTRAINT matches_ended CHECK ((end_reason IS NULL) OR ((completed_at IS NOT NULL) AND (result IS NOT NULL))),
    CONSTRAINT matches_running_has_state CHECK ((status <> 'in_progress') OR ((state IS NOT NULL) AND (started_at IS NOT NULL))),
    CONSTRAINT matches_two_players CHECK (player1_id <> player2_id),
    CONSTRAINT matches_void_has_no_winner CHECK ((end_reason IS DISTINCT FROM 'void') OR (winner_id IS NULL)),
    CONSTRAINT matches_winner_is_player CHECK ((winner_id IS NULL) OR ((winner_id = player1_id) OR (winner_id = player2_id)))
)
WITH (fillfactor='80');
CREATE INDEX matches_player1 ON matches (player1_id, scheduled_time);
CREATE INDEX matches_player2 ON matches (player2_id, scheduled_time);
CREATE INDEX matches_private_waiting ON matches (COALESCE(scheduled_time, created_at)) WHERE (is_private AND (challenge_id IS NULL) AND (status IN ('pending', 'accepted')));
CREATE INDEX matches_running ON matches (status) WHERE (status = 'in_progress');
CREATE INDEX matches_waiting ON matches (COALESCE(scheduled_time, created_at)) WHERE (status IN ('pending', 'accepted'));
CREATE TRIGGER matches_never_deleted BEFORE DELETE ON matches FOR EACH ROW EXECUTE FUNCTION matches_never_deleted();
CREATE TRIGGER matches_never_truncated BEFORE TRUNCATE ON matches FOR EACH STATEMENT EXECUTE FUNCTION matches_never_deleted();
CREATE TRIGGER matches_schedule_reminders AFTER INSERT OR UPDATE OF scheduled_time ON matches FOR EACH ROW EXECUTE FUNCTION matches_schedule_reminders();
CREATE TRIGGER matches_status_transition BEFORE UPDATE OF status ON matches FOR EACH ROW WHEN ((old.status IS DISTINCT FROM new.status)) EXECUTE FUNCTION matches_status_transition();

-- Declared once matches exists: a challenge names the match it became.
ALTER TABLE challenges ADD CONSTRAINT challenges_match_fk FOREIGN KEY (match_id) REFERENCES matches(id);

-- Every move of a match, in order: seq 1, 2, 3... across the games of the series. `move` is
-- the canonical move (it may be secret until the game is over: a throw); `notation` is public.
CREATE TABLE match_moves (
    match_id uuid NOT NULL,
    seq integer NOT NULL CHECK (seq >= 1),
    game_index integer NOT NULL CHECK (game_index >= 0),
    seat smallint NOT NULL CHECK (seat = ANY (ARRAY[0, 1])),
    move jsonb NOT NULL,
    notation text NOT NULL,
    created_at timestamptz NOT NULL,
    remaining_ms integer[] NOT NULL CHECK (cardinality(remaining_ms) = 2),
    elapsed_ms integer NOT NULL CHECK (elapsed_ms >= 0),
    lag_ms double precision CHECK (lag_ms >= (0)::double precision),
    premove boolean DEFAULT false NOT NULL,
    CONSTRAINT match_moves_pkey PRIMARY KEY (match_id, seq)
);

-- Glicko-2 per player and game (packages/domain/src/rating.ts); a player without a row is new.
CREATE TABLE ratings (
    user_id uuid NOT NULL REFERENCES users(id),
    game text NOT NULL CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')),
    rating double precision NOT NULL,
    rd double precision NOT NULL CHECK (rd > (0)::double precision),
    volatility double precision NOT NULL CHECK (volatility > (0)::double precision),
    games integer DEFAULT 0 NOT NULL CHECK (games >= 0),
    wins integer DEFAULT 0 NOT NULL CHECK (wins >= 0),
    losses integer DEFAULT 0 NOT NULL CHECK (losses >= 0),
    draws integer DEFAULT 0 NOT NULL CHECK (draws >= 0),
    updated_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT ratings_pkey PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_game ON ratings (game, rating DESC, user_id);
CREATE TRIGGER ratings_global_rating AFTER INSERT OR UPDATE OF rating, games ON ratings FOR EACH ROW EXECUTE FUNCTION profiles_global_rating();
