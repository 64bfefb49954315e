-- Private rooms: a code to share, joined by one other player.

-- A private room: its creator shares the code, one other player joins, then its match is made.
CREATE TABLE private_rooms (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    room_code text NOT NULL CHECK (room_code ~ '^[A-Z0-9]{6}$'),
    creator_id uuid NOT NULL REFERENCES users(id),
    joiner_id uuid REFERENCES users(id),
    game_type text NOT NULL CHECK (game_type IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors')),
    bet_tier integer DEFAULT 20 NOT NULL CHECK (bet_tier = ANY (ARRAY[5, 10, 20, 50, 100])),
    currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
    message text CHECK ((length(message) >= 1) AND (length(message) <= 200)),
    status text DEFAULT 'waiting_for_player' NOT NULL CHECK (status IN ('waiting_for_player', 'both_joined', 'match_created', 'cancelled', 'expired')),
    match_id uuid REFERENCES matches(id),
    created_at timestamptz DEFAULT now() NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL,
    expires_at timestamptz NOT NULL,
    closed_at timestamptz,
    CONSTRAINT private_rooms_closed CHECK ((status IN ('cancelled', 'expired')) = (closed_at IS NOT NULL)),
    CONSTRAINT private_rooms_match_made CHECK ((status <> 'match_created') OR ((joiner_id IS NOT NULL) AND (match_id IS NOT NULL))),
    CONSTRAINT private_rooms_not_own CHECK ((joiner_id IS NULL) OR (joiner_id <> creator_id)),
    CONSTRAINT private_rooms_waiting_empty CHECK ((status <> 'waiting_for_player') OR ((joiner_id IS NULL) AND (match_id IS NULL)))
);
CREATE UNIQUE INDEX private_rooms_code_key ON private_rooms (room_code);
CREATE INDEX private_rooms_joiner ON private_rooms (joiner_id) WHERE (joiner_id IS NOT NULL);
CREATE UNIQUE INDEX private_rooms_one_active ON private_rooms (creator_id) WHERE (status IN ('waiting_for_player', 'both_joined'));
CREATE INDEX private_rooms_waiting_expiry ON private_rooms (expires_at) WHERE (status = 'waiting_for_player');
