-- Ledger: double-entry accounts; balances move only by transfers, which never change or go away.
-- Domains carry the checks, so each column states its rule once.

CREATE DOMAIN ledger_account_kind AS text CONSTRAINT ledger_account_kind_known CHECK (VALUE IN ('available', 'escrow', 'house'));
CREATE DOMAIN ledger_amount AS bigint CONSTRAINT ledger_amount_positive CHECK (VALUE > 0);
CREATE DOMAIN ledger_currency AS text CONSTRAINT ledger_currency_known CHECK (VALUE IN ('credits', 'pcredits', 'vtokens'));
CREATE DOMAIN ledger_description AS text CONSTRAINT ledger_description_length CHECK (length(VALUE) <= 200);
CREATE DOMAIN ledger_hold_status AS text CONSTRAINT ledger_hold_status_known CHECK (VALUE IN ('held', 'released', 'settled'));
CREATE DOMAIN ledger_idempotency_key AS text CONSTRAINT ledger_idempotency_key_length CHECK ((length(VALUE) >= 1) AND (length(VALUE) <= 300));
CREATE DOMAIN ledger_operation_kind AS text CONSTRAINT ledger_operation_kind_known CHECK (VALUE IN ('grant', 'spend', 'lock', 'release', 'settle', 'draw', 'weekly_reset'));
CREATE DOMAIN ledger_transfer_reason AS text CONSTRAINT ledger_transfer_reason_known CHECK (VALUE IN ('starting', 'grant', 'admin_grant', 'weekly_reset', 'spend', 'escrow_lock', 'escrow_release', 'settle', 'draw'));

-- One available and one escrow account per user and currency, and one house account per currency.
CREATE TABLE ledger_accounts (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id uuid REFERENCES users(id),
    currency ledger_currency NOT NULL,
    kind ledger_account_kind NOT NULL,
    balance bigint DEFAULT 0 NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT ledger_accounts_not_negative CHECK (((kind)::text = 'house') OR (balance >= 0))
);
CREATE UNIQUE INDEX ledger_accounts_house_key ON ledger_accounts (currency) WHERE ((kind)::text = 'house');
CREATE UNIQUE INDEX ledger_accounts_user_key ON ledger_accounts (user_id, currency, kind) WHERE (user_id IS NOT NULL);
CREATE TRIGGER ledger_accounts_fixed BEFORE INSERT OR DELETE OR UPDATE OF id, user_id, currency, kind ON ledger_accounts FOR EACH ROW EXECUTE FUNCTION ledger_accounts_fixed();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();

-- The house accounts come first, so they have the lowest ids and are locked first.
INSERT INTO ledger_accounts (user_id, currency, kind) VALUES
  (NULL, 'credits', 'house'),
  (NULL, 'pcredits', 'house'),
  (NULL, 'vtokens', 'house');

-- One row per idempotency key: the operation's request (hashed) and its first result.
CREATE TABLE ledger_operations (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    idempotency_key ledger_idempotency_key NOT NULL,
    kind ledger_operation_kind NOT NULL,
    request_hash uuid NOT NULL,
    result jsonb NOT NULL,
    created_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT ledger_operations_idempotency_key UNIQUE (idempotency_key)
);
CREATE TRIGGER ledger_operations_immutable BEFORE DELETE OR UPDATE ON ledger_operations FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_operations_no_truncate BEFORE TRUNCATE ON ledger_operations FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();

-- A stake locked in escrow. It belongs to exactly one challenge, match or room (no foreign key:
-- ledger.audit.ts checks ownership).
CREATE TABLE escrow_holds (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id uuid NOT NULL,
    currency ledger_currency NOT NULL,
    amount ledger_amount NOT NULL,
    status ledger_hold_status DEFAULT 'held' NOT NULL,
    challenge_id uuid,
    match_id uuid,
    room_id uuid,
    owner_id uuid GENERATED ALWAYS AS (COALESCE(challenge_id, match_id, room_id)) STORED,
    lock_operation_id bigint NOT NULL,
    close_operation_id bigint,
    created_at timestamptz DEFAULT now() NOT NULL,
    closed_at timestamptz,
    CONSTRAINT escrow_holds_closed CHECK (((status)::text = 'held') = ((closed_at IS NULL) AND (close_operation_id IS NULL))),
    CONSTRAINT escrow_holds_one_owner CHECK (num_nonnulls(challenge_id, match_id, room_id) = 1)
);
CREATE UNIQUE INDEX escrow_holds_owner_user ON escrow_holds (owner_id, user_id) WHERE ((status)::text = 'held');
CREATE TRIGGER escrow_holds_never_deleted BEFORE DELETE ON escrow_holds FOR EACH ROW EXECUTE FUNCTION ledger_never_deleted();
CREATE TRIGGER escrow_holds_no_truncate BEFORE TRUNCATE ON escrow_holds FOR EACH STATEMENT EXECUTE FUNCTION ledger_never_deleted();

-- The history every balance is the sum of: one operation's movements between two accounts.
CREATE TABLE ledger_transfers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operation_id bigint NOT NULL,
    from_account bigint NOT NULL,
    to_account bigint NOT NULL,
    amount ledger_amount NOT NULL,
    currency ledger_currency NOT NULL,
    reason ledger_transfer_reason NOT NULL,
    description ledger_description,
    hold_id bigint,
    challenge_id uuid,
    match_id uuid,
    room_id uuid,
    created_at timestamptz DEFAULT now() NOT NULL,
    CONSTRAINT ledger_transfers_two_accounts CHECK (from_account <> to_account)
);
CREATE INDEX ledger_transfers_from_account ON ledger_transfers (from_account, id);
CREATE INDEX ledger_transfers_to_account ON ledger_transfers (to_account, id);
CREATE TRIGGER ledger_transfers_apply AFTER INSERT ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_transfers_apply();
CREATE TRIGGER ledger_transfers_immutable BEFORE DELETE OR UPDATE ON ledger_transfers FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();
