-- Accounts: the sign-in identity (users), the player's profile, and the server's own secrets.

-- The sign-in identity; everything a player shows lives in profiles.
CREATE TABLE users (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    email text NOT NULL UNIQUE CHECK ((email = lower(email)) AND (POSITION(('@') IN (email)) > 1)),
    password_hash text NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL
);

-- The player: SPEC's profile fields, real and virtual counters, and the global rating (trigger).
CREATE TABLE profiles (
    id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    username text NOT NULL CHECK ((length(username) >= 3) AND (length(username) <= 24)),
    display_name text NOT NULL,
    avatar_url text,
    role text DEFAULT 'user' NOT NULL CHECK (role IN ('user', 'promoter', 'admin')),
    account_type text DEFAULT 'real' NOT NULL CHECK (account_type IN ('real', 'virtual')),
    level integer DEFAULT 1 NOT NULL CHECK (level >= 1),
    wins integer DEFAULT 0 NOT NULL CHECK (wins >= 0),
    losses integer DEFAULT 0 NOT NULL CHECK (losses >= 0),
    streak integer DEFAULT 0 NOT NULL,
    rank integer DEFAULT 5000 NOT NULL,
    global_rank integer DEFAULT 5000 NOT NULL,
    verified jsonb DEFAULT '{"all": false, "xbox": false, "steam": false, "identity": false, "playstation": false}'::jsonb NOT NULL,
    is_first_time_setup boolean DEFAULT true NOT NULL,
    verification_completed_at timestamptz,
    full_name text NOT NULL,
    phone text NOT NULL,
    date_of_birth date NOT NULL,
    age_verified boolean NOT NULL CHECK (age_verified),
    timezone text DEFAULT 'UTC' NOT NULL,
    last_login timestamptz,
    weekly_virtual_credits_remaining integer DEFAULT 500 NOT NULL CHECK (weekly_virtual_credits_remaining >= 0),
    weekly_virtual_credits_last_reset timestamptz DEFAULT now() NOT NULL,
    total_virtual_credits_earned integer DEFAULT 0 NOT NULL,
    virtual_games_played integer DEFAULT 0 NOT NULL,
    virtual_wins integer DEFAULT 0 NOT NULL,
    virtual_losses integer DEFAULT 0 NOT NULL,
    virtual_theme text DEFAULT 'virtual-neon' NOT NULL,
    virtual_overlay_enabled boolean DEFAULT true NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL,
    updated_at timestamptz DEFAULT now() NOT NULL,
    global_rating double precision
);
CREATE INDEX profiles_global_board ON profiles (global_rating DESC, id) WHERE ((account_type = 'real') AND (global_rating IS NOT NULL));
CREATE UNIQUE INDEX profiles_username_key ON profiles (lower(username));
CREATE INDEX profiles_weekly_reset ON profiles (weekly_virtual_credits_last_reset) WHERE (account_type = 'virtual');

-- Secrets the server generates once and every server process on this database shares
-- (the token signing key, the Web Push VAPID keys).
CREATE TABLE app_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL
);
