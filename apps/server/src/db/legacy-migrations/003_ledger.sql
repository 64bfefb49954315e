-- The credits ledger: double-entry accounts, immutable transfers, escrow holds, and the
-- operations that move money, each one a PL/pgSQL function.
--
-- Why the operations live in the database: each is a single statement for the caller, so a
-- money movement is one round trip however many rows it touches, and no code path can write a
-- transfer without its balance update (a trigger keeps balances), skip the fixed lock order,
-- or forget the idempotency check. The TypeScript service (ledger.service.ts) decides nothing
-- about money itself: it validates input, maps refusals to messages and publishes events.
--
-- Rules every operation follows:
--  * Locks, always in this order: escrow holds (ORDER BY id), then ledger accounts (ORDER BY id,
--    all in one statement), then the profile. So no two operations deadlock.
--  * Refusals (insufficient funds, wrong currency, nothing held, ...) are RETURNED as
--    {"ok": false, "error": ...} before anything is written, never raised: a refusal leaves
--    the caller's own transaction usable.
--  * Every operation takes an idempotency key. A replay (same key, same request) returns the
--    first result with "replayed": true and moves nothing; the same key with another request
--    is refused ("key_reused"). The key is checked after the locks are taken, so a replay
--    racing its original waits for it and then sees it.
--  * Amounts are integer minor units (cents): 1000 credits = 100000.

-- ---------------------------------------------------------------------------------------
-- Accounts

CREATE TABLE ledger_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- NULL for the house account of a currency.
  user_id uuid REFERENCES users (id),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  kind text NOT NULL CHECK (kind IN ('available', 'escrow', 'house')),
  balance bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ledger_accounts_owner CHECK ((kind = 'house') = (user_id IS NULL)),
  -- The house issues every grant, so it alone goes below zero: it holds the negative of all
  -- credits in circulation.
  CONSTRAINT ledger_accounts_not_negative CHECK (kind = 'house' OR balance >= 0),
  CONSTRAINT ledger_accounts_id_currency UNIQUE (id, currency)
);

CREATE UNIQUE INDEX ledger_accounts_user_key ON ledger_accounts (user_id, currency, kind) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_house_key ON ledger_accounts (currency) WHERE kind = 'house';

-- The house accounts come first, so they have the lowest ids and are locked first.
INSERT INTO ledger_accounts (user_id, currency, kind) VALUES
  (NULL, 'credits', 'house'),
  (NULL, 'pcredits', 'house'),
  (NULL, 'vtokens', 'house');

-- ---------------------------------------------------------------------------------------
-- Operations (one per idempotency key) and their transfers

CREATE TABLE ledger_operations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 300),
  kind text NOT NULL CHECK (kind IN ('grant', 'spend', 'lock', 'release', 'settle', 'draw', 'weekly_reset')),
  -- md5 of the request as the caller made it (its canonical jsonb text): a replay must match
  -- it. (What moved is in the transfers; a hash keeps every operation's row small.)
  request_hash uuid NOT NULL,
  -- What the first call returned (but the operation's own id), returned again to every replay.
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ledger_operations_idempotency_key UNIQUE (idempotency_key)
);

-- A stake locked in escrow. It belongs to exactly one challenge, match or room (those tables
-- arrive with their features, so there is no foreign key; ledger.audit.ts checks ownership).
CREATE TABLE escrow_holds (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- No foreign key to users: a lock checks the player's profile itself, and a key-share lock
  -- on the users row at every lock would cost a WAL record (the audit checks each held stake
  -- against its player's escrow account).
  user_id uuid NOT NULL,
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'released', 'settled')),
  challenge_id uuid,
  match_id uuid,
  room_id uuid,
  -- uuids are unique across tables, so the owner's id alone finds its holds.
  owner_id uuid GENERATED ALWAYS AS (coalesce(challenge_id, match_id, room_id)) STORED,
  lock_operation_id bigint NOT NULL REFERENCES ledger_operations (id),
  close_operation_id bigint REFERENCES ledger_operations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  CONSTRAINT escrow_holds_one_owner CHECK (num_nonnulls(challenge_id, match_id, room_id) = 1),
  CONSTRAINT escrow_holds_closed CHECK ((status = 'held') = (closed_at IS NULL AND close_operation_id IS NULL))
);

-- One stake per player per owner while it is held.
CREATE UNIQUE INDEX escrow_holds_owner_user ON escrow_holds (owner_id, user_id) WHERE status = 'held';

CREATE TABLE ledger_transfers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  operation_id bigint NOT NULL REFERENCES ledger_operations (id),
  from_account bigint NOT NULL,
  to_account bigint NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL CHECK (currency IN ('credits', 'pcredits', 'vtokens')),
  reason text NOT NULL CHECK (reason IN ('starting', 'grant', 'admin_grant', 'weekly_reset', 'spend', 'escrow_lock', 'escrow_release', 'settle', 'draw')),
  description text CHECK (length(description) <= 200),
  hold_id bigint REFERENCES escrow_holds (id),
  challenge_id uuid,
  match_id uuid,
  room_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT ledger_transfers_two_accounts CHECK (from_account <> to_account),
  -- Both sides are accounts of the transfer's currency.
  CONSTRAINT ledger_transfers_from FOREIGN KEY (from_account, currency) REFERENCES ledger_accounts (id, currency),
  CONSTRAINT ledger_transfers_to FOREIGN KEY (to_account, currency) REFERENCES ledger_accounts (id, currency)
);

-- A player's history, newest first. (Nothing in the hot path looks transfers up by operation,
-- so there is no index on operation_id: every index is another WAL record per transfer.)
CREATE INDEX ledger_transfers_from_account ON ledger_transfers (from_account, id);
CREATE INDEX ledger_transfers_to_account ON ledger_transfers (to_account, id);

-- A transfer moves the balances of its two accounts in the same statement, so the balances
-- can never disagree with the transfers. The operations have already locked both rows.
CREATE FUNCTION ledger_transfers_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts
     SET balance = balance + CASE WHEN id = NEW.to_account THEN NEW.amount ELSE -NEW.amount END
   WHERE id IN (NEW.from_account, NEW.to_account);
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_transfers_apply AFTER INSERT ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_apply();

-- Transfers and operations are history: never changed, never deleted.
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger: % rows are immutable', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;

CREATE TRIGGER ledger_transfers_immutable BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_operations_immutable BEFORE UPDATE OR DELETE ON ledger_operations
  FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
CREATE TRIGGER ledger_operations_no_truncate BEFORE TRUNCATE ON ledger_operations
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_immutable();

-- ---------------------------------------------------------------------------------------
-- Scheduled jobs: one row per job; a process runs a job only after moving next_run_at
-- forward in a single UPDATE, so each period's run happens in exactly one process.

CREATE TABLE scheduled_jobs (
  name text PRIMARY KEY,
  next_run_at timestamptz NOT NULL,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_error text,
  runs bigint NOT NULL DEFAULT 0
);

-- Finds the profiles due for their weekly reset without reading every profile each hour.
CREATE INDEX profiles_weekly_reset ON profiles (weekly_virtual_credits_last_reset) WHERE account_type = 'virtual';

-- ---------------------------------------------------------------------------------------
-- Helpers

-- SPEC §6: the role decides the currency; virtual accounts use VTokens (money.ts currencyFor).
CREATE FUNCTION ledger_currency_for(p_role text, p_account_type text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN p_account_type = 'virtual' THEN 'vtokens'
              WHEN p_role IN ('promoter', 'admin') THEN 'pcredits'
              ELSE 'credits' END
$$;

-- Locks the user's available and escrow accounts of a currency (and the house's when asked)
-- in id order, in one statement, and returns their ids and balances. Missing accounts read
-- as balance 0 and id NULL. The ids are looked up first (they never change) so the locking
-- statement has a plain `id = ANY` condition: under READ COMMITTED a row updated by a
-- concurrent transaction is re-read after the wait, and a join in the locking statement
-- could drop that row instead.
CREATE FUNCTION ledger_lock_user(
  p_user uuid, p_currency text, p_with_house boolean,
  OUT house_id bigint, OUT available_id bigint, OUT escrow_id bigint, OUT available bigint, OUT escrow bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_ids bigint[];
BEGIN
  v_ids := ARRAY(SELECT id FROM ledger_accounts WHERE user_id = p_user AND currency = p_currency);
  IF p_with_house THEN
    v_ids := v_ids || (SELECT id FROM ledger_accounts WHERE kind = 'house' AND currency = p_currency);
  END IF;
  SELECT max(id) FILTER (WHERE kind = 'house'),
         max(id) FILTER (WHERE kind = 'available'),
         max(id) FILTER (WHERE kind = 'escrow'),
         coalesce(max(balance) FILTER (WHERE kind = 'available'), 0),
         coalesce(max(balance) FILTER (WHERE kind = 'escrow'), 0)
    INTO house_id, available_id, escrow_id, available, escrow
    FROM (SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY (v_ids) ORDER BY id FOR UPDATE) locked;
END $$;

-- Opens a user's available and escrow accounts of a currency if missing. (Helpers are
-- PL/pgSQL, not SQL functions: PL/pgSQL keeps its query plans between calls.)
CREATE FUNCTION ledger_open_accounts(p_user uuid, p_currency text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_accounts (user_id, currency, kind)
  VALUES (p_user, p_currency, 'available'), (p_user, p_currency, 'escrow')
  ON CONFLICT DO NOTHING;
END $$;

-- The first result of an earlier call with this key, or NULL if the key is new.
CREATE FUNCTION ledger_replay(p_key text, p_kind text, p_request jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  op ledger_operations;
BEGIN
  SELECT * INTO op FROM ledger_operations WHERE idempotency_key = p_key;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF op.kind <> p_kind OR op.request_hash <> md5(p_request::text)::uuid THEN
    RETURN '{"ok": false, "error": "key_reused"}';
  END IF;
  RETURN op.result || jsonb_build_object('operationId', op.id, 'replayed', true);
END $$;

-- Records the operation and its result under its key, returning its id. Replays of one request
-- are serialized by the row locks taken before the replay check, so the key is free here unless
-- another request used the same key at the same moment: then the unique index refuses it and
-- the transaction fails (a caller bug, never a retry).
CREATE FUNCTION ledger_claim(p_key text, p_kind text, p_request jsonb, p_result jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, p_kind, md5(p_request::text)::uuid, p_result)
  RETURNING id INTO v_id;
  RETURN v_id;
END $$;

-- ---------------------------------------------------------------------------------------
-- Operations

-- house → the user's available balance. Opens the user's accounts of that currency if needed.
CREATE FUNCTION ledger_grant(p_key text, p_user uuid, p_currency text, p_amount bigint, p_reason text, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_request jsonb := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount,
                                        'reason', p_reason, 'description', p_description);
  v_replay jsonb;
  v_result jsonb;
  acc record;
  v_op bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  IF p_reason NOT IN ('starting', 'grant', 'admin_grant', 'weekly_reset') THEN
    RAISE EXCEPTION 'ledger: % is not a grant reason', p_reason;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM users WHERE id = p_user) THEN
    RETURN '{"ok": false, "error": "user_not_found"}';
  END IF;
  PERFORM ledger_open_accounts(p_user, p_currency);
  acc := ledger_lock_user(p_user, p_currency, true);
  v_replay := ledger_replay(p_key, 'grant', v_request);
  IF v_replay IS NOT NULL THEN RETURN v_replay; END IF;
  v_result := jsonb_build_object('ok', true, 'currency', p_currency, 'amount', p_amount,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', p_currency,
      'available', acc.available + p_amount, 'escrow', acc.escrow)));
  v_op := ledger_claim(p_key, 'grant', v_request, v_result);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.house_id, acc.available_id, p_amount, p_currency, p_reason, p_description);
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- The user's available balance → house. p_currency NULL means the currency of the user's mode.
-- Spending VTokens also lowers the week's remaining allowance (SPEC §4).
CREATE FUNCTION ledger_spend(p_key text, p_user uuid, p_currency text, p_amount bigint, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_request jsonb := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount, 'description', p_description);
  v_replay jsonb;
  v_result jsonb;
  prof record;
  v_own text;
  v_currency text;
  acc record;
  v_op bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  SELECT role, account_type INTO prof FROM profiles WHERE id = p_user;
  IF NOT FOUND THEN RETURN '{"ok": false, "error": "user_not_found"}'; END IF;
  v_own := ledger_currency_for(prof.role, prof.account_type);
  v_currency := coalesce(p_currency, v_own);
  acc := ledger_lock_user(p_user, v_currency, true);
  v_replay := ledger_replay(p_key, 'spend', v_request);
  IF v_replay IS NOT NULL THEN RETURN v_replay; END IF;
  IF v_currency <> v_own THEN
    RETURN jsonb_build_object('ok', false, 'error', 'currency_not_allowed', 'currency', v_currency, 'allowed', v_own, 'accountType', prof.account_type);
  END IF;
  IF acc.available < p_amount THEN
    RETURN jsonb_build_object('ok', false, 'error', 'insufficient', 'currency', v_currency, 'needed', p_amount, 'available', acc.available);
  END IF;
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', p_amount,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', v_currency,
      'available', acc.available - p_amount, 'escrow', acc.escrow)));
  v_op := ledger_claim(p_key, 'spend', v_request, v_result);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.available_id, acc.house_id, p_amount, v_currency, 'spend', p_description);
  IF v_currency = 'vtokens' THEN
    UPDATE profiles
       SET weekly_virtual_credits_remaining = greatest(0, weekly_virtual_credits_remaining - ceil(p_amount / 100.0)::integer),
           updated_at = now()
     WHERE id = p_user;
  END IF;
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- The user's available → escrow, as a hold owned by one challenge, match or room.
CREATE FUNCTION ledger_lock_escrow(p_key text, p_user uuid, p_currency text, p_amount bigint,
  p_challenge uuid, p_match uuid, p_room uuid, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_request jsonb := jsonb_build_object('user', p_user, 'currency', p_currency, 'amount', p_amount, 'challenge', p_challenge,
                                        'match', p_match, 'room', p_room, 'description', p_description);
  v_replay jsonb;
  v_result jsonb;
  prof record;
  v_own text;
  v_currency text;
  acc record;
  v_op bigint;
  v_hold bigint;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN RETURN '{"ok": false, "error": "invalid_amount"}'; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  SELECT role, account_type INTO prof FROM profiles WHERE id = p_user;
  IF NOT FOUND THEN RETURN '{"ok": false, "error": "user_not_found"}'; END IF;
  v_own := ledger_currency_for(prof.role, prof.account_type);
  v_currency := coalesce(p_currency, v_own);
  acc := ledger_lock_user(p_user, v_currency, false);
  v_replay := ledger_replay(p_key, 'lock', v_request);
  IF v_replay IS NOT NULL THEN RETURN v_replay; END IF;
  IF v_currency <> v_own THEN
    RETURN jsonb_build_object('ok', false, 'error', 'currency_not_allowed', 'currency', v_currency, 'allowed', v_own, 'accountType', prof.account_type);
  END IF;
  IF acc.available < p_amount THEN
    RETURN jsonb_build_object('ok', false, 'error', 'insufficient', 'currency', v_currency, 'needed', p_amount, 'available', acc.available);
  END IF;
  IF EXISTS (SELECT 1 FROM escrow_holds WHERE owner_id = coalesce(p_challenge, p_match, p_room) AND user_id = p_user AND status = 'held') THEN
    RETURN '{"ok": false, "error": "already_held"}';
  END IF;
  -- The hold's id is drawn first so that the stored result carries it.
  v_hold := nextval('escrow_holds_id_seq');
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', p_amount, 'holdId', v_hold,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', v_currency,
      'available', acc.available - p_amount, 'escrow', acc.escrow + p_amount)));
  v_op := ledger_claim(p_key, 'lock', v_request, v_result);
  INSERT INTO escrow_holds (id, user_id, currency, amount, challenge_id, match_id, room_id, lock_operation_id)
  OVERRIDING SYSTEM VALUE
  VALUES (v_hold, p_user, v_currency, p_amount, p_challenge, p_match, p_room, v_op);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id)
  VALUES (v_op, acc.available_id, acc.escrow_id, p_amount, v_currency, 'escrow_lock', p_description, v_hold, p_challenge, p_match, p_room);
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- Closes the held holds of one owner (optionally only one player's):
--   p_mode 'release' / 'draw': each stake back to its player's available balance;
--   p_mode 'settle': every stake to the winner's available balance (2 × stake for a match, no fee).
CREATE FUNCTION ledger_close_holds(p_mode text, p_key text, p_challenge uuid, p_match uuid, p_room uuid,
  p_user uuid, p_winner uuid, p_description text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_kind text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'release' END;
  v_reason text := CASE p_mode WHEN 'settle' THEN 'settle' WHEN 'draw' THEN 'draw' ELSE 'escrow_release' END;
  v_request jsonb := jsonb_build_object('challenge', p_challenge, 'match', p_match, 'room', p_room,
                                        'user', p_user, 'winner', p_winner, 'description', p_description);
  v_owner uuid := coalesce(p_challenge, p_match, p_room);
  v_replay jsonb;
  v_result jsonb;
  v_holds escrow_holds[];
  v_hold escrow_holds;
  v_currency text;
  v_mixed boolean;
  v_users uuid[];
  v_accounts ledger_accounts[];
  v_op bigint;
  v_total bigint := 0;
  v_to bigint;
  v_from bigint;
  v_balances jsonb;
BEGIN
  IF p_mode NOT IN ('release', 'draw', 'settle') THEN RAISE EXCEPTION 'ledger: unknown close mode %', p_mode; END IF;
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RETURN '{"ok": false, "error": "invalid_owner"}'; END IF;
  IF p_mode = 'settle' AND p_winner IS NULL THEN RETURN '{"ok": false, "error": "winner_without_stake"}'; END IF;

  -- Holds first, then every account of their players, each in id order.
  SELECT coalesce(array_agg(x.h ORDER BY (x.h).id), '{}') INTO v_holds FROM (
    SELECT h FROM escrow_holds h
     WHERE h.owner_id = v_owner AND h.status = 'held'
       AND h.challenge_id IS NOT DISTINCT FROM p_challenge AND h.match_id IS NOT DISTINCT FROM p_match
       AND h.room_id IS NOT DISTINCT FROM p_room
       AND (p_user IS NULL OR h.user_id = p_user)
     ORDER BY h.id FOR UPDATE) x;
  SELECT array_agg(DISTINCT hh.user_id), min(hh.currency), count(DISTINCT hh.currency) > 1
    INTO v_users, v_currency, v_mixed
    FROM unnest(v_holds) hh;
  SELECT coalesce(array_agg(y.l ORDER BY (y.l).id), '{}') INTO v_accounts FROM (
    SELECT a AS l FROM ledger_accounts a
     WHERE a.id = ANY (ARRAY(SELECT u.id FROM ledger_accounts u WHERE u.user_id = ANY (v_users) AND u.currency = v_currency))
     ORDER BY a.id FOR UPDATE) y;

  v_replay := ledger_replay(p_key, v_kind, v_request);
  IF v_replay IS NOT NULL THEN RETURN v_replay; END IF;
  IF cardinality(v_holds) = 0 THEN RETURN '{"ok": false, "error": "nothing_held"}'; END IF;
  IF v_mixed THEN RETURN '{"ok": false, "error": "mixed_currencies"}'; END IF;
  IF p_mode = 'settle' THEN
    IF NOT (p_winner = ANY (v_users)) THEN RETURN '{"ok": false, "error": "winner_without_stake"}'; END IF;
    IF cardinality(v_users) < 2 THEN RETURN '{"ok": false, "error": "stakes_missing"}'; END IF;
  END IF;

  -- The balances after: each player's escrow loses their stake; the winner (settle) or each
  -- player (release, draw) gains it in available.
  SELECT sum(amount) INTO v_total FROM unnest(v_holds);
  SELECT jsonb_agg(jsonb_build_object('userId', a.user_id, 'currency', v_currency,
           'available', a.available + CASE WHEN p_mode = 'settle' THEN CASE WHEN a.user_id = p_winner THEN v_total ELSE 0 END
                                           ELSE coalesce(h.amount, 0) END,
           'escrow', a.escrow - coalesce(h.amount, 0)) ORDER BY a.user_id)
    INTO v_balances
    FROM (SELECT user_id, max(balance) FILTER (WHERE kind = 'available') AS available,
                 max(balance) FILTER (WHERE kind = 'escrow') AS escrow
            FROM unnest(v_accounts) GROUP BY user_id) a
    LEFT JOIN (SELECT user_id, sum(amount) AS amount FROM unnest(v_holds) GROUP BY user_id) h ON h.user_id = a.user_id;
  v_result := jsonb_build_object('ok', true, 'currency', v_currency, 'amount', v_total, 'holds', cardinality(v_holds), 'balances', v_balances);
  v_op := ledger_claim(p_key, v_kind, v_request, v_result);

  FOREACH v_hold IN ARRAY v_holds LOOP
    SELECT id INTO v_from FROM unnest(v_accounts) WHERE user_id = v_hold.user_id AND kind = 'escrow';
    SELECT id INTO v_to FROM unnest(v_accounts)
     WHERE user_id = CASE WHEN p_mode = 'settle' THEN p_winner ELSE v_hold.user_id END AND kind = 'available';
    INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description, hold_id, challenge_id, match_id, room_id)
    VALUES (v_op, v_from, v_to, v_hold.amount, v_hold.currency, v_reason, p_description, v_hold.id, v_hold.challenge_id, v_hold.match_id, v_hold.room_id);
  END LOOP;
  UPDATE escrow_holds
     SET status = CASE WHEN p_mode = 'settle' THEN 'settled' ELSE 'released' END,
         closed_at = now(), close_operation_id = v_op
   WHERE id IN (SELECT hh.id FROM unnest(v_holds) hh);
  -- SPEC §3 total_virtual_credits_earned: the VTokens a virtual player won (the others' stakes),
  -- in whole tokens.
  IF p_mode = 'settle' AND v_currency = 'vtokens' THEN
    UPDATE profiles
       SET total_virtual_credits_earned = total_virtual_credits_earned
             + ((v_total - (SELECT coalesce(sum(hh.amount), 0) FROM unnest(v_holds) hh WHERE hh.user_id = p_winner)) / 100)::integer,
           updated_at = now()
     WHERE id = p_winner;
  END IF;
  RETURN v_result || jsonb_build_object('operationId', v_op, 'replayed', false);
END $$;

-- Moves the held holds of one owner to another (a challenge's stakes to its match).
CREATE FUNCTION ledger_transfer_holds(p_from uuid, p_challenge uuid, p_match uuid, p_room uuid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_count integer;
BEGIN
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RAISE EXCEPTION 'ledger: a hold has exactly one owner'; END IF;
  WITH locked AS (SELECT id FROM escrow_holds WHERE owner_id = p_from AND status = 'held' ORDER BY id FOR UPDATE)
  UPDATE escrow_holds SET challenge_id = p_challenge, match_id = p_match, room_id = p_room
   WHERE id IN (SELECT id FROM locked);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $$;

-- SPEC §4 weekly virtual allowance. The rule: when 7 days or more have passed since the last
-- reset of a virtual account, its available VTokens are topped back up to 500 by a grant from
-- the house (tokens won above 500 are kept, tokens in escrow are not counted), the week's
-- remaining allowance goes back to 500 and the reset time becomes now. Returns NULL when no
-- reset is due.
CREATE FUNCTION ledger_weekly_reset(p_user uuid) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_allowance constant bigint := 50000;
  acc record;
  v_last timestamptz;
  v_top_up bigint;
  v_key text;
  v_result jsonb;
  v_op bigint;
BEGIN
  PERFORM ledger_open_accounts(p_user, 'vtokens');
  acc := ledger_lock_user(p_user, 'vtokens', true);
  SELECT weekly_virtual_credits_last_reset INTO v_last FROM profiles
   WHERE id = p_user AND account_type = 'virtual' AND weekly_virtual_credits_last_reset <= now() - interval '7 days'
   FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  UPDATE profiles
     SET weekly_virtual_credits_remaining = v_allowance / 100, weekly_virtual_credits_last_reset = now(), updated_at = now()
   WHERE id = p_user;
  v_top_up := greatest(0, v_allowance - acc.available);
  IF v_top_up = 0 THEN
    RETURN jsonb_build_object('ok', true, 'operationId', NULL, 'amount', 0, 'currency', 'vtokens', 'balances', '[]'::jsonb);
  END IF;
  v_key := 'weekly-reset:' || p_user || ':' || extract(epoch FROM v_last)::text;
  v_result := jsonb_build_object('ok', true, 'currency', 'vtokens', 'amount', v_top_up,
    'balances', jsonb_build_array(jsonb_build_object('userId', p_user, 'currency', 'vtokens',
      'available', acc.available + v_top_up, 'escrow', acc.escrow)));
  v_op := ledger_claim(v_key, 'weekly_reset', jsonb_build_object('user', p_user, 'lastReset', v_last), v_result);
  INSERT INTO ledger_transfers (operation_id, from_account, to_account, amount, currency, reason, description)
  VALUES (v_op, acc.house_id, acc.available_id, v_top_up, 'vtokens', 'weekly_reset', 'Weekly VTokens');
  RETURN v_result || jsonb_build_object('operationId', v_op);
END $$;
