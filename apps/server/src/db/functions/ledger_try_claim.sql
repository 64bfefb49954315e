-- Records the operation and its result under its key, returning its id; NULL when the key is
-- taken (a replay, or another request with the key: the caller answers with ledger_replay). A
-- claim racing another transaction's uncommitted one waits for it, then sees it.
CREATE OR REPLACE FUNCTION ledger_try_claim(p_key text, p_kind text, p_request jsonb, p_result jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, p_kind, md5(p_request::text)::uuid, p_result)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $function$;
