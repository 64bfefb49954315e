-- The same guarantees as before, checked where they cost less per money movement.
--
-- PostgreSQL 15 turns a table's CHECK constraints back from their stored text (stringToNode,
-- then const-folding) every time a statement writing the table starts, and every foreign key
-- is a query of its own per row written. A match's three ledger transactions start about twenty
-- writing statements (every balance change is an UPDATE of ledger_accounts, with its four
-- checks) and ran twenty-odd foreign-key checks. Measured on one backend (CPU per match, lock A,
-- lock B, settle, bench/ledger's accounts): 990 µs before, 880 µs with the value checks as
-- domains, 820 µs with the account keys proved by the balance trigger as well (and the account
-- owner rule checked once, when an account is opened: another ~7 % on a later measurement).
--
-- 1. Checks on a single column's value become domains. A domain's check runs only when a value
--    of the column is written (a balance UPDATE writes no currency or kind), and its compiled
--    expression is kept in the type cache. An account's owner rule (a house account has no
--    user, every other one has) is checked when the account is opened: its columns never change
--    (below), so a table check re-read at every balance change proved nothing new. The other
--    multi-column checks stay table checks, not_negative above all.
-- 2. The two account foreign keys of a transfer are proved by the balance trigger, which already
--    updates both accounts: it now updates them only in the transfer's currency and fails
--    unless it moved exactly two rows (from_account <> to_account is a check). What a foreign key
--    also gives — the referenced rows can't be deleted or re-keyed — comes from accounts whose
--    identity never changes and which are never deleted (a trigger refuses both).
-- 3. The links between rows that one ledger function writes together, in one transaction — a
--    transfer's operation and hold, a hold's lock and close operations — lose their foreign keys
--    (four checks per lock, six per settlement: 820 → 735 µs per match). The function writes the
--    row it links to first, or has it locked; operations are immutable, and now holds are never
--    deleted either, so a link once written stays good. The audit checks every link
--    (ledger.audit.ts `links`), as it checks every balance against its transfers.

CREATE DOMAIN ledger_currency AS text
  CONSTRAINT ledger_currency_known CHECK (VALUE IN ('credits', 'pcredits', 'vtokens'));
CREATE DOMAIN ledger_account_kind AS text
  CONSTRAINT ledger_account_kind_known CHECK (VALUE IN ('available', 'escrow', 'house'));
CREATE DOMAIN ledger_amount AS bigint
  CONSTRAINT ledger_amount_positive CHECK (VALUE > 0);
CREATE DOMAIN ledger_hold_status AS text
  CONSTRAINT ledger_hold_status_known CHECK (VALUE IN ('held', 'released', 'settled'));
CREATE DOMAIN ledger_transfer_reason AS text
  CONSTRAINT ledger_transfer_reason_known
  CHECK (VALUE IN ('starting', 'grant', 'admin_grant', 'weekly_reset', 'spend', 'escrow_lock', 'escrow_release', 'settle', 'draw'));
CREATE DOMAIN ledger_operation_kind AS text
  CONSTRAINT ledger_operation_kind_known CHECK (VALUE IN ('grant', 'spend', 'lock', 'release', 'settle', 'draw', 'weekly_reset'));
CREATE DOMAIN ledger_idempotency_key AS text
  CONSTRAINT ledger_idempotency_key_length CHECK (length(VALUE) BETWEEN 1 AND 300);
CREATE DOMAIN ledger_description AS text
  CONSTRAINT ledger_description_length CHECK (length(VALUE) <= 200);

ALTER TABLE ledger_transfers
  DROP CONSTRAINT ledger_transfers_from,
  DROP CONSTRAINT ledger_transfers_to,
  DROP CONSTRAINT ledger_transfers_currency_check,
  DROP CONSTRAINT ledger_transfers_reason_check,
  DROP CONSTRAINT ledger_transfers_amount_check,
  DROP CONSTRAINT ledger_transfers_description_check,
  ALTER COLUMN currency TYPE ledger_currency,
  ALTER COLUMN reason TYPE ledger_transfer_reason,
  ALTER COLUMN amount TYPE ledger_amount,
  ALTER COLUMN description TYPE ledger_description;

-- (It existed for the transfers' (account, currency) keys.)
ALTER TABLE ledger_accounts
  DROP CONSTRAINT ledger_accounts_id_currency,
  DROP CONSTRAINT ledger_accounts_owner,
  DROP CONSTRAINT ledger_accounts_currency_check,
  DROP CONSTRAINT ledger_accounts_kind_check,
  ALTER COLUMN currency TYPE ledger_currency,
  ALTER COLUMN kind TYPE ledger_account_kind;

ALTER TABLE escrow_holds
  DROP CONSTRAINT escrow_holds_currency_check,
  DROP CONSTRAINT escrow_holds_amount_check,
  DROP CONSTRAINT escrow_holds_status_check,
  ALTER COLUMN currency TYPE ledger_currency,
  ALTER COLUMN amount TYPE ledger_amount,
  ALTER COLUMN status TYPE ledger_hold_status;

ALTER TABLE ledger_operations
  DROP CONSTRAINT ledger_operations_idempotency_key_check,
  DROP CONSTRAINT ledger_operations_kind_check,
  ALTER COLUMN idempotency_key TYPE ledger_idempotency_key,
  ALTER COLUMN kind TYPE ledger_operation_kind;

CREATE OR REPLACE FUNCTION ledger_transfers_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_moved integer;
BEGIN
  UPDATE ledger_accounts
     SET balance = balance + CASE WHEN id = NEW.to_account THEN NEW.amount ELSE -NEW.amount END
   WHERE id IN (NEW.from_account, NEW.to_account) AND currency = NEW.currency;
  GET DIAGNOSTICS v_moved = ROW_COUNT;
  IF v_moved <> 2 THEN
    RAISE EXCEPTION 'ledger: a transfer of % names an account (% or %) that is not a % account', NEW.currency,
      NEW.from_account, NEW.to_account, NEW.currency USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END $$;

-- An account is opened with an owner that fits its kind; its identity is fixed then, and it is
-- never deleted: transfers name it.
CREATE FUNCTION ledger_accounts_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF (NEW.kind = 'house') IS DISTINCT FROM (NEW.user_id IS NULL) THEN
      RAISE EXCEPTION 'ledger_accounts_owner: a house account has no user, and every other account has one'
        USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.id, NEW.user_id, NEW.currency, NEW.kind) IS NOT DISTINCT FROM (OLD.id, OLD.user_id, OLD.currency, OLD.kind) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'ledger: an account''s owner, currency and kind never change, and accounts are never deleted'
    USING ERRCODE = 'restrict_violation';
END $$;

-- UPDATE OF: a balance change does not fire it.
CREATE TRIGGER ledger_accounts_fixed BEFORE INSERT OR UPDATE OF id, user_id, currency, kind OR DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_fixed();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();

ALTER TABLE ledger_transfers
  DROP CONSTRAINT ledger_transfers_operation_id_fkey,
  DROP CONSTRAINT ledger_transfers_hold_id_fkey;
ALTER TABLE escrow_holds
  DROP CONSTRAINT escrow_holds_lock_operation_id_fkey,
  DROP CONSTRAINT escrow_holds_close_operation_id_fkey;

CREATE FUNCTION ledger_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger: % rows are never deleted', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER escrow_holds_never_deleted BEFORE DELETE ON escrow_holds
  FOR EACH ROW EXECUTE FUNCTION ledger_never_deleted();
CREATE TRIGGER escrow_holds_no_truncate BEFORE TRUNCATE ON escrow_holds
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_never_deleted();
