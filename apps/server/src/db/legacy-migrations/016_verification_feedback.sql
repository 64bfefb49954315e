-- Verification (linked gamertags, identity and age checks reviewed by an admin) and beta feedback.

-- One gamertag per player and platform; `verified` is set when an admin approves a review of it
-- and cleared when the gamertag changes.
CREATE TABLE gamertags (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('xbox', 'playstation', 'steam')),
  gamertag text NOT NULL CHECK (length(gamertag) BETWEEN 1 AND 32),
  verified boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, platform)
);

-- Without a real provider every check is a request an admin approves or rejects:
--   pending -> approved | rejected | cancelled (the player changed or unlinked the gamertag).
CREATE TABLE verification_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('xbox', 'playstation', 'steam', 'identity')),
  gamertag text,
  full_name text,
  date_of_birth date,
  document_type text CHECK (document_type IN ('passport', 'driving_licence', 'national_id')),
  document_last4 text CHECK (document_last4 ~ '^[A-Za-z0-9]{4}$'),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
  reason text CHECK (length(reason) <= 500),
  reviewed_by uuid REFERENCES users (id),
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'identity') = (gamertag IS NULL)),
  CHECK ((kind = 'identity') = (full_name IS NOT NULL AND date_of_birth IS NOT NULL AND document_type IS NOT NULL))
);
CREATE UNIQUE INDEX verification_requests_one_pending ON verification_requests (user_id, kind) WHERE status = 'pending';
CREATE INDEX verification_requests_queue ON verification_requests (status, created_at);

CREATE OR REPLACE FUNCTION verification_requests_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected', 'cancelled')) THEN
    RAISE EXCEPTION 'verification request %: % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER verification_requests_transition BEFORE UPDATE ON verification_requests FOR EACH ROW EXECUTE FUNCTION verification_requests_transition();

-- Beta feedback from the chat widget: open -> answered (once; the answer reaches the author).
CREATE TABLE beta_feedback (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  message text NOT NULL CHECK (length(message) BETWEEN 1 AND 2000),
  page_url text NOT NULL CHECK (length(page_url) <= 2000),
  app_version text NOT NULL CHECK (length(app_version) <= 64),
  user_agent text CHECK (length(user_agent) <= 500),
  screenshot_key text UNIQUE,
  screenshot_type text CHECK (screenshot_type IN ('image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif')),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered')),
  answer text CHECK (length(answer) BETWEEN 1 AND 2000),
  answered_by uuid REFERENCES users (id),
  answered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((screenshot_key IS NULL) = (screenshot_type IS NULL)),
  CHECK ((status = 'answered') = (answer IS NOT NULL AND answered_at IS NOT NULL))
);
CREATE INDEX beta_feedback_user ON beta_feedback (user_id, created_at DESC);
CREATE INDEX beta_feedback_status ON beta_feedback (status, created_at DESC);
