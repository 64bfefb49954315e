-- Abuse limits (http/rate-limit.ts): one row per counted key ("signup:address:…", "code:account:…"),
-- a fixed window each. Kept in the database so a limit holds across every server process.
CREATE TABLE rate_limits (
  key text PRIMARY KEY CHECK (length(key) <= 300),
  hits integer NOT NULL CHECK (hits > 0),
  resets_at timestamptz NOT NULL
);

-- Finished windows are pruned a small batch at a time (rate-limit.ts consume).
CREATE INDEX rate_limits_resets_at ON rate_limits (resets_at);
