-- Tournaments (issue 27): knockout brackets and timed arenas over the web games. Entry stakes (or
-- a sponsor's prize) are held in escrow owned by the tournament until the pool is paid in one
-- ledger operation (functions/ledger_pay_pool.sql) or returned on a cancel.
CREATE TABLE tournaments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creator_id uuid NOT NULL REFERENCES users(id),
  name text NOT NULL CHECK (length(name) BETWEEN 3 AND 80),
  game text NOT NULL CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo')),
  format text NOT NULL CHECK (format IN ('knockout', 'arena')),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  -- Minor units, as the ledger counts: each player's stake, or the sponsor's prize (one of the two).
  entry_stake bigint NOT NULL CHECK (entry_stake >= 0),
  sponsored_prize bigint NOT NULL CHECK (sponsored_prize >= 0),
  -- The currency the sponsor's prize is held in (theirs); paid out at par in `currency`.
  sponsor_currency text CHECK (sponsor_currency IN ('credits', 'pcredits', 'vtokens')),
  min_players integer NOT NULL,
  max_players integer NOT NULL,
  starts_at timestamptz NOT NULL,
  match_minutes integer NOT NULL CHECK (match_minutes BETWEEN 1 AND 600),
  match_format text CHECK (match_format IN ('best-of-1', 'best-of-3')),
  arena_minutes integer CHECK (arena_minutes BETWEEN 20 AND 60),
  ends_at timestamptz,
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'running', 'finished', 'cancelled')),
  -- Knockout: the whole bracket (domain tournaments/bracket.ts), stored from the start.
  bracket jsonb,
  -- Fixed at the start: every entrant's stake, or the sponsor's prize.
  prize_pool bigint CHECK (prize_pool >= 0),
  starting_soon_sent_at timestamptz,
  started_at timestamptz,
  finished_at timestamptz,
  cancelled_at timestamptz,
  cancel_reason text CHECK (cancel_reason IN ('too_few', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tournaments_players CHECK (min_players BETWEEN 4 AND 64 AND max_players BETWEEN 4 AND 64 AND min_players <= max_players),
  CONSTRAINT tournaments_one_entry_kind CHECK ((entry_stake > 0) <> (sponsored_prize > 0)),
  CONSTRAINT tournaments_sponsor_currency CHECK ((sponsored_prize > 0) = (sponsor_currency IS NOT NULL)),
  CONSTRAINT tournaments_format_fields CHECK (
    CASE format
      WHEN 'knockout' THEN match_format IS NOT NULL AND arena_minutes IS NULL AND ends_at IS NULL
      ELSE match_format IS NULL AND arena_minutes IS NOT NULL AND ends_at IS NOT NULL
    END),
  CONSTRAINT tournaments_started CHECK (status NOT IN ('running', 'finished') OR (started_at IS NOT NULL AND prize_pool IS NOT NULL)),
  CONSTRAINT tournaments_bracket CHECK (format = 'arena' OR status NOT IN ('running', 'finished') OR bracket IS NOT NULL),
  CONSTRAINT tournaments_finished CHECK ((status = 'finished') = (finished_at IS NOT NULL)),
  CONSTRAINT tournaments_cancelled CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL AND cancel_reason IS NOT NULL))
);
CREATE INDEX tournaments_due ON tournaments (starts_at) WHERE status = 'scheduled';
CREATE INDEX tournaments_live ON tournaments (starts_at) WHERE status = 'running';
CREATE INDEX tournaments_listing ON tournaments (status, starts_at DESC, id);
CREATE TRIGGER tournaments_status_transition BEFORE UPDATE OF status ON tournaments FOR EACH ROW
  WHEN (old.status IS DISTINCT FROM new.status) EXECUTE FUNCTION tournaments_status_transition();

-- A player's place in a tournament. Before the start a player who leaves is deleted (the ledger
-- keeps the stake's history); from the start every entrant stays.
CREATE TABLE tournament_entries (
  tournament_id uuid NOT NULL REFERENCES tournaments(id),
  user_id uuid NOT NULL REFERENCES users(id),
  -- A new one per entry: the stake's ledger key, so leaving and entering again locks a new stake.
  entry_key uuid NOT NULL,
  -- The player's rating in the game when entering: seeds a bracket, breaks arena ties.
  rating integer NOT NULL,
  seed integer CHECK (seed >= 1),
  -- Arena: not paired until they come back. Knockout: left after the start (every match a walkover).
  paused boolean NOT NULL DEFAULT false,
  withdrawn boolean NOT NULL DEFAULT false,
  score integer NOT NULL DEFAULT 0 CHECK (score >= 0),
  win_streak integer NOT NULL DEFAULT 0 CHECK (win_streak >= 0),
  games integer NOT NULL DEFAULT 0 CHECK (games >= 0),
  wins integer NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
  -- Arena: waiting to be paired since (null while playing, paused or before the start).
  waiting_since timestamptz,
  last_opponent uuid,
  -- The match the player is in now (waiting for both to be ready, or being played).
  current_match_id uuid,
  -- Knockout: the round (0 = first) the player lost in.
  eliminated_round integer CHECK (eliminated_round >= 0),
  place integer CHECK (place >= 1),
  prize bigint NOT NULL DEFAULT 0 CHECK (prize >= 0),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tournament_id, user_id),
  CONSTRAINT tournament_entries_waiting CHECK (waiting_since IS NULL OR (current_match_id IS NULL AND NOT paused))
);
CREATE INDEX tournament_entries_user ON tournament_entries (user_id, joined_at DESC);

-- Every game a tournament made: a match of the arena (matches.tournament_id), its round and slot
-- in a knockout bracket (decider 1, 2... for the deciding games of a drawn pairing), and when the
-- tournament took its result (applied_at: a result not yet applied is applied by the next run).
CREATE TABLE tournament_games (
  match_id uuid PRIMARY KEY REFERENCES matches(id),
  tournament_id uuid NOT NULL REFERENCES tournaments(id),
  round integer CHECK (round >= 0),
  slot integer CHECK (slot >= 0),
  decider integer NOT NULL DEFAULT 0 CHECK (decider >= 0),
  player1_id uuid NOT NULL REFERENCES users(id),
  player2_id uuid NOT NULL REFERENCES users(id),
  -- Each player's rating when paired (arena performance).
  player1_rating integer NOT NULL,
  player2_rating integer NOT NULL,
  -- As the tournament applied it: the winner's seat, a draw, or nobody came.
  result text CHECK (result IN ('player1', 'player2', 'draw', 'void')),
  created_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz,
  -- The order results were taken in: an arena score is folded in it (streaks), whatever the clocks said.
  applied_order bigint,
  CONSTRAINT tournament_games_slot CHECK ((round IS NULL) = (slot IS NULL)),
  CONSTRAINT tournament_games_applied CHECK ((applied_at IS NULL) = (result IS NULL) AND (applied_at IS NULL) = (applied_order IS NULL)),
  CONSTRAINT tournament_games_two_players CHECK (player1_id <> player2_id)
);
CREATE SEQUENCE tournament_games_applied_order;
CREATE UNIQUE INDEX tournament_games_bracket_slot ON tournament_games (tournament_id, round, slot, decider) WHERE round IS NOT NULL;
CREATE INDEX tournament_games_of ON tournament_games (tournament_id, created_at);
CREATE INDEX tournament_games_unapplied ON tournament_games (tournament_id) WHERE applied_at IS NULL;

-- A tournament's match: no stake of its own (the pool is the tournament's), a ready deadline of
-- the format's (TOURNAMENT_READY_MS) and, for a deciding game, who moves first.
ALTER TABLE matches ADD COLUMN tournament_id uuid REFERENCES tournaments(id);
ALTER TABLE matches ADD COLUMN ready_by timestamptz;
ALTER TABLE matches ADD COLUMN first_seat smallint CHECK (first_seat IN (0, 1));
-- The sweep finds a tournament match's no-show by its own deadline (arena.repository.ts overdueArrivals).
CREATE INDEX matches_ready_by ON matches (ready_by) WHERE status IN ('pending', 'accepted') AND ready_by IS NOT NULL;
ALTER TABLE matches DROP CONSTRAINT matches_stake_check;
ALTER TABLE matches ADD CONSTRAINT matches_stake_check CHECK (stake > 0 OR (stake = 0 AND tournament_id IS NOT NULL));

-- Escrow a tournament owns: entry stakes until the payout, a sponsor's prize too.
ALTER TABLE escrow_holds ADD COLUMN tournament_id uuid;
ALTER TABLE escrow_holds DROP COLUMN owner_id;
ALTER TABLE escrow_holds ADD COLUMN owner_id uuid GENERATED ALWAYS AS (COALESCE(challenge_id, match_id, room_id, tournament_id)) STORED;
CREATE UNIQUE INDEX escrow_holds_owner_user ON escrow_holds (owner_id, user_id) WHERE ((status)::text = 'held');
ALTER TABLE escrow_holds DROP CONSTRAINT escrow_holds_one_owner;
ALTER TABLE escrow_holds ADD CONSTRAINT escrow_holds_one_owner CHECK (num_nonnulls(challenge_id, match_id, room_id, tournament_id) = 1);
ALTER TABLE ledger_transfers ADD COLUMN tournament_id uuid;

ALTER DOMAIN ledger_operation_kind DROP CONSTRAINT ledger_operation_kind_known;
ALTER DOMAIN ledger_operation_kind ADD CONSTRAINT ledger_operation_kind_known
  CHECK (VALUE IN ('grant', 'spend', 'lock', 'release', 'settle', 'draw', 'weekly_reset', 'payout'));
ALTER DOMAIN ledger_transfer_reason DROP CONSTRAINT ledger_transfer_reason_known;
ALTER DOMAIN ledger_transfer_reason ADD CONSTRAINT ledger_transfer_reason_known
  CHECK (VALUE IN ('starting', 'grant', 'admin_grant', 'weekly_reset', 'spend', 'escrow_lock', 'escrow_release', 'settle', 'draw',
                   'tournament_pool', 'tournament_prize'));

-- The ledger functions that name an owner take the tournament too (functions/): the old signatures go.
DROP FUNCTION IF EXISTS ledger_lock_escrow(text, uuid, text, bigint, uuid, uuid, uuid, text);
DROP FUNCTION IF EXISTS ledger_close_holds(text, text, uuid, uuid, uuid, uuid, uuid, text);

-- The tournaments' notifications (domain notifications/enums.ts).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('match_invitation', 'match_confirmed',
  'match_starting_soon', 'match_reminder', 'match_ready', 'match_in_progress', 'match_move_made', 'match_started', 'match_completed',
  'match_disputed', 'match_forfeit', 'challenge_accepted', 'challenge_created', 'challenge_expired', 'challenge_declined',
  'challenge_reminder', 'payment_received', 'payment_sent', 'credits_earned', 'credits_deducted', 'escrow_released', 'friend_request',
  'friend_accepted', 'follow_request', 'follow_accepted', 'player_online', 'player_joined_room', 'player_joined_challenge',
  'player_joined_pool_challenge', 'system_announcement', 'maintenance_notice', 'feature_update', 'account_update', 'security_alert',
  'tournament_starting_soon', 'tournament_game_ready', 'tournament_eliminated', 'tournament_prize', 'tournament_cancelled'));
