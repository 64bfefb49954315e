-- Results of games played outside Versus: reports, evidence, no-show claims, the match chat,
-- disputes, and every transition of such a match (who, what, when).
--
-- Settlement itself stays in the arena's finishMatch (arena.finish.ts). Two changes to earlier
-- tables let it settle external games:
--  * ratings may be kept for the external games too (finishMatch rates every non-void ending);
--  * a disputed match may return to 'accepted' for the instant its resolution is settled: the
--    resolution does that and calls finishMatch in the same transaction, so a disputed match is
--    never seen 'accepted' by anyone else.

ALTER TABLE ratings DROP CONSTRAINT ratings_game_check;
ALTER TABLE ratings ADD CONSTRAINT ratings_game_check CHECK (game IN ('tic-tac-toe', 'rock-paper-scissors', 'chess',
  'checkers', 'ludo', 'ai-rock-paper-scissors', 'fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant'));

CREATE OR REPLACE FUNCTION matches_status_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (
    ('pending', 'accepted'), ('pending', 'in_progress'), ('pending', 'completed'), ('pending', 'disputed'), ('pending', 'cancelled'),
    ('accepted', 'in_progress'), ('accepted', 'completed'), ('accepted', 'disputed'), ('accepted', 'cancelled'),
    ('in_progress', 'completed'), ('in_progress', 'disputed'), ('in_progress', 'cancelled'),
    ('completed', 'disputed'),
    ('disputed', 'completed'), ('disputed', 'cancelled'), ('disputed', 'accepted')
  ) THEN
    RAISE EXCEPTION 'match %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

-- Uploaded evidence: the bytes live in the FileStore under storage_key.
CREATE TABLE match_evidence (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  match_id uuid NOT NULL REFERENCES matches (id),
  user_id uuid NOT NULL REFERENCES users (id),
  storage_key text NOT NULL UNIQUE,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif')),
  size integer NOT NULL CHECK (size BETWEEN 1 AND 5242880),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX match_evidence_match ON match_evidence (match_id);

-- One report per player per match.
CREATE TABLE match_reports (
  match_id uuid NOT NULL REFERENCES matches (id),
  user_id uuid NOT NULL REFERENCES users (id),
  outcome text NOT NULL CHECK (outcome IN ('win', 'loss')),
  evidence_id uuid REFERENCES match_evidence (id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (match_id, user_id)
);

-- At most one no-show claim per match.
CREATE TABLE match_no_show_claims (
  match_id uuid PRIMARY KEY REFERENCES matches (id),
  claimant_id uuid NOT NULL REFERENCES users (id),
  claimed_at timestamptz NOT NULL,
  deadline timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'forfeited')),
  answered_at timestamptz
);
CREATE INDEX match_no_show_claims_open ON match_no_show_claims (deadline) WHERE status = 'open';

CREATE TABLE match_chat (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  match_id uuid NOT NULL REFERENCES matches (id),
  user_id uuid NOT NULL REFERENCES users (id),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 500),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX match_chat_match ON match_chat (match_id, id);

-- Every transition of an external match: actor NULL for the system (a timer).
CREATE TABLE match_transitions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  match_id uuid NOT NULL REFERENCES matches (id),
  actor_id uuid REFERENCES users (id),
  action text NOT NULL,
  from_status text,
  to_status text,
  detail jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL
);
CREATE INDEX match_transitions_match ON match_transitions (match_id, id);

CREATE TABLE disputes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  match_id uuid NOT NULL UNIQUE REFERENCES matches (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  opened_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by uuid REFERENCES users (id),
  outcome text CHECK (outcome IN ('player1', 'player2', 'draw', 'void')),
  reason text CHECK (length(reason) BETWEEN 1 AND 2000),
  CONSTRAINT disputes_resolved CHECK ((status = 'resolved') = (resolved_at IS NOT NULL AND resolved_by IS NOT NULL AND outcome IS NOT NULL AND reason IS NOT NULL))
);
CREATE INDEX disputes_open ON disputes (opened_at) WHERE status = 'open';

CREATE TABLE dispute_statements (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES disputes (id),
  user_id uuid NOT NULL REFERENCES users (id),
  body text CHECK (length(body) BETWEEN 1 AND 2000),
  evidence_id uuid REFERENCES match_evidence (id),
  created_at timestamptz NOT NULL,
  CONSTRAINT dispute_statements_something CHECK (body IS NOT NULL OR evidence_id IS NOT NULL)
);
CREATE INDEX dispute_statements_dispute ON dispute_statements (dispute_id, id);
