-- Results: evidence, reports, no-show claims, chat, the audit of status changes and disputes.

-- Uploaded evidence: the bytes live in the FileStore under storage_key.
CREATE TABLE match_evidence (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    match_id uuid NOT NULL REFERENCES matches(id),
    user_id uuid NOT NULL REFERENCES users(id),
    storage_key text NOT NULL UNIQUE,
    content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif')),
    size integer NOT NULL CHECK ((size >= 1) AND (size <= 5242880)),
    created_at timestamptz DEFAULT now() NOT NULL
);
CREATE INDEX match_evidence_match ON match_evidence (match_id);

-- One report per player per match.
CREATE TABLE match_reports (
    match_id uuid NOT NULL REFERENCES matches(id),
    user_id uuid NOT NULL REFERENCES users(id),
    outcome text NOT NULL CHECK (outcome IN ('win', 'loss')),
    evidence_id uuid REFERENCES match_evidence(id),
    created_at timestamptz NOT NULL,
    CONSTRAINT match_reports_pkey PRIMARY KEY (match_id, user_id)
);

-- At most one no-show claim per match.
CREATE TABLE match_no_show_claims (
    match_id uuid PRIMARY KEY REFERENCES matches(id),
    claimant_id uuid NOT NULL REFERENCES users(id),
    claimed_at timestamptz NOT NULL,
    deadline timestamptz NOT NULL,
    status text DEFAULT 'open' NOT NULL CHECK (status IN ('open', 'answered', 'forfeited')),
    answered_at timestamptz
);
CREATE INDEX match_no_show_claims_open ON match_no_show_claims (deadline) WHERE (status = 'open');

-- The players' chat of an external match.
CREATE TABLE match_chat (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id uuid NOT NULL REFERENCES matches(id),
    user_id uuid NOT NULL REFERENCES users(id),
    body text NOT NULL CHECK ((length(body) >= 1) AND (length(body) <= 500)),
    created_at timestamptz DEFAULT now() NOT NULL
);
CREATE INDEX match_chat_match ON match_chat (match_id, id);

-- Every transition of an external match: actor NULL for the system (a timer).
CREATE TABLE match_transitions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id uuid NOT NULL REFERENCES matches(id),
    actor_id uuid REFERENCES users(id),
    action text NOT NULL,
    from_status text,
    to_status text,
    detail jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX match_transitions_match ON match_transitions (match_id, id);

-- A dispute of an external match's result, decided by an admin.
CREATE TABLE disputes (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    match_id uuid NOT NULL UNIQUE REFERENCES matches(id),
    status text DEFAULT 'open' NOT NULL CHECK (status IN ('open', 'resolved')),
    opened_at timestamptz NOT NULL,
    resolved_at timestamptz,
    resolved_by uuid REFERENCES users(id),
    outcome text CHECK (outcome IN ('player1', 'player2', 'draw', 'void')),
    reason text CHECK ((length(reason) >= 1) AND (length(reason) <= 2000)),
    CONSTRAINT disputes_resolved CHECK ((status = 'resolved') = ((resolved_at IS NOT NULL) AND (resolved_by IS NOT NULL) AND (outcome IS NOT NULL) AND (reason IS NOT NULL)))
);
CREATE INDEX disputes_open ON disputes (opened_at) WHERE (status = 'open');

-- What each side (and the admin) says in a dispute, with optional evidence.
CREATE TABLE dispute_statements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dispute_id uuid NOT NULL REFERENCES disputes(id),
    user_id uuid NOT NULL REFERENCES users(id),
    body text CHECK ((length(body) >= 1) AND (length(body) <= 2000)),
    evidence_id uuid REFERENCES match_evidence(id),
    created_at timestamptz NOT NULL,
    CONSTRAINT dispute_statements_something CHECK ((body IS NOT NULL) OR (evidence_id IS NOT NULL))
);
CREATE INDEX dispute_statements_dispute ON dispute_statements (dispute_id, id);
