-- Accounts: the sign-in identity (users) and the player's profile (profiles), one row each.

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = lower(email) AND position('@' in email) > 1),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_email_key UNIQUE (email)
);

CREATE TABLE profiles (
  id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  username text NOT NULL CHECK (length(username) BETWEEN 3 AND 24),
  display_name text NOT NULL,
  avatar_url text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'promoter', 'admin')),
  account_type text NOT NULL DEFAULT 'real' CHECK (account_type IN ('real', 'virtual')),
  level integer NOT NULL DEFAULT 1 CHECK (level >= 1),
  wins integer NOT NULL DEFAULT 0 CHECK (wins >= 0),
  losses integer NOT NULL DEFAULT 0 CHECK (losses >= 0),
  streak integer NOT NULL DEFAULT 0,
  rank integer NOT NULL DEFAULT 5000,
  global_rank integer NOT NULL DEFAULT 5000,
  verified jsonb NOT NULL DEFAULT '{"xbox":false,"playstation":false,"steam":false,"identity":false,"all":false}',
  is_first_time_setup boolean NOT NULL DEFAULT true,
  verification_completed_at timestamptz,
  full_name text NOT NULL,
  phone text NOT NULL,
  date_of_birth date NOT NULL,
  age_verified boolean NOT NULL CHECK (age_verified),
  timezone text NOT NULL DEFAULT 'UTC',
  last_login timestamptz,
  weekly_virtual_credits_remaining integer NOT NULL DEFAULT 500 CHECK (weekly_virtual_credits_remaining >= 0),
  weekly_virtual_credits_last_reset timestamptz NOT NULL DEFAULT now(),
  total_virtual_credits_earned integer NOT NULL DEFAULT 0,
  virtual_games_played integer NOT NULL DEFAULT 0,
  virtual_wins integer NOT NULL DEFAULT 0,
  virtual_losses integer NOT NULL DEFAULT 0,
  virtual_theme text NOT NULL DEFAULT 'virtual-neon',
  virtual_overlay_enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX profiles_username_key ON profiles (lower(username));

-- Realtime: every event published to a topic, numbered per topic without gaps, so a client
-- that reconnects asks for what came after the last version it saw.
CREATE TABLE realtime_topics (
  topic text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);

CREATE TABLE realtime_events (
  topic text NOT NULL,
  version bigint NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (topic, version)
);

CREATE INDEX realtime_events_created_at ON realtime_events (created_at);

-- Secrets the server generates once and every server process on this database shares
-- (the token signing key, the Web Push VAPID keys).
CREATE TABLE app_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
