-- Auth: refresh-token families, sign-in attempts and the abuse limits shared by every server process.

-- Refresh tokens rotate on every use. Only the SHA-256 of a token is stored, so a copy of
-- this table cannot be replayed. All tokens descending from one sign-in share a family:
-- presenting a token that was already used revokes the whole family (a stolen copy).
CREATE TABLE refresh_tokens (
    id uuid DEFAULT gen_random_uuid() PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    family_id uuid NOT NULL,
    parent_id uuid REFERENCES refresh_tokens(id) ON DELETE SET NULL,
    token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    created_at timestamptz DEFAULT now() NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    revoked_at timestamptz
);
CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

-- One row per sign-in attempt, kept in the database so the limits hold across every server
-- process. An attempt counts against its account and its address while pending (password
-- being checked) or failed; a success clears the account's count but not the address's.
CREATE TABLE sign_in_attempts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email text NOT NULL,
    address text NOT NULL,
    outcome text DEFAULT 'pending' NOT NULL CHECK (outcome IN ('pending', 'failure', 'success', 'refused')),
    account_cleared boolean DEFAULT false NOT NULL,
    attempted_at timestamptz DEFAULT now() NOT NULL
);
CREATE INDEX sign_in_attempts_address ON sign_in_attempts (address, attempted_at);
CREATE INDEX sign_in_attempts_attempted_at ON sign_in_attempts (attempted_at);
CREATE INDEX sign_in_attempts_email ON sign_in_attempts (email, attempted_at);
