-- The live arena: a match's state as the server referees it, every move in order, and each
-- player's rating per game.
--
-- One writer per match: every change of a match is an UPDATE ... WHERE id = $1 AND version = $2
-- that bumps `version`, in the same transaction as the move row it adds and the event it
-- publishes; a writer holding a stale version changes nothing. Status changes follow
-- MATCH_TRANSITIONS (packages/domain/src/arena.ts); the trigger below refuses the rest.

ALTER TABLE matches
  ADD COLUMN version integer NOT NULL DEFAULT 0 CHECK (version >= 0),
  -- The refereed state (series, current game, clock, seeds): the server's alone, never sent as
  -- is (viewers get views with the secrets removed). NULL until the match starts.
  ADD COLUMN state jsonb,
  ADD COLUMN player1_ready_at timestamptz,
  ADD COLUMN player2_ready_at timestamptz,
  ADD COLUMN started_at timestamptz,
  ADD COLUMN completed_at timestamptz,
  ADD COLUMN end_reason text CHECK (end_reason IN ('games-won', 'drawn-game-cap', 'resignation', 'forfeit', 'void')),
  -- What finishing paid and rated (matchResultSchema).
  ADD COLUMN result jsonb,
  -- When the running clock next needs looking at (a flag may fall): the sweeper's work list.
  ADD COLUMN deadline_at timestamptz,
  ADD CONSTRAINT matches_running_has_state CHECK (status <> 'in_progress' OR (state IS NOT NULL AND started_at IS NOT NULL)),
  ADD CONSTRAINT matches_ended CHECK (end_reason IS NULL OR (completed_at IS NOT NULL AND result IS NOT NULL)),
  ADD CONSTRAINT matches_void_has_no_winner CHECK (end_reason IS DISTINCT FROM 'void' OR winner_id IS NULL);

-- A move rewrites the row in place (HOT) when the page has room and no indexed column changes:
-- so the columns a move touches carry no index, and pages keep some room.
ALTER TABLE matches SET (fillfactor = 80);

-- Running matches, for the clock sweeper (indexed on status, which a move does not change).
CREATE INDEX matches_running ON matches (status) WHERE status = 'in_progress';
-- Matches waiting for their players, by start time, for the no-show sweeper.
CREATE INDEX matches_waiting ON matches ((coalesce(scheduled_time, created_at))) WHERE status IN ('pending', 'accepted');

CREATE FUNCTION matches_status_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (
    ('pending', 'accepted'), ('pending', 'in_progress'), ('pending', 'completed'), ('pending', 'disputed'), ('pending', 'cancelled'),
    ('accepted', 'in_progress'), ('accepted', 'completed'), ('accepted', 'disputed'), ('accepted', 'cancelled'),
    ('in_progress', 'completed'), ('in_progress', 'disputed'), ('in_progress', 'cancelled'),
    ('completed', 'disputed'),
    ('disputed', 'completed'), ('disputed', 'cancelled')
  ) THEN
    RAISE EXCEPTION 'match %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER matches_status_transition BEFORE UPDATE OF status ON matches
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION matches_status_transition();

-- Every move of a match, in order: seq 1, 2, 3... across the games of the series. `move` is
-- the canonical move (it may be secret until the game is over: a throw); `notation` is public.
CREATE TABLE match_moves (
  match_id uuid NOT NULL REFERENCES matches (id),
  seq integer NOT NULL CHECK (seq >= 1),
  game_index integer NOT NULL CHECK (game_index >= 0),
  seat smallint NOT NULL CHECK (seat IN (0, 1)),
  move jsonb NOT NULL,
  notation text NOT NULL,
  -- Server time the move was received, and the clock it left: [seat 0, seat 1] in ms.
  created_at timestamptz NOT NULL,
  remaining_ms integer[] NOT NULL CHECK (cardinality(remaining_ms) = 2),
  elapsed_ms integer NOT NULL CHECK (elapsed_ms >= 0),
  PRIMARY KEY (match_id, seq)
);

-- Glicko-2 per player and game (packages/domain/src/rating.ts); a player without a row is new.
CREATE TABLE ratings (
  user_id uuid NOT NULL REFERENCES users (id),
  game text NOT NULL CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors')),
  rating double precision NOT NULL,
  rd double precision NOT NULL CHECK (rd > 0),
  volatility double precision NOT NULL CHECK (volatility > 0),
  games integer NOT NULL DEFAULT 0 CHECK (games >= 0),
  wins integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
  losses integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
  draws integer NOT NULL DEFAULT 0 CHECK (draws >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, game)
);

-- Leaderboards per game.
CREATE INDEX ratings_game ON ratings (game, rating DESC);
