-- Records the operation and its result under its key, returning its id. Replays of one request
-- are serialized by the row locks taken before the replay check, so the key is free here unless
-- another request used the same key at the same moment: then the unique index refuses it and
-- the transaction fails (a caller bug, never a retry).
CREATE OR REPLACE FUNCTION ledger_claim(p_key text, p_kind text, p_request jsonb, p_result jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id bigint;
BEGIN
  INSERT INTO ledger_operations (idempotency_key, kind, request_hash, result)
  VALUES (p_key, p_kind, md5(p_request::text)::uuid, p_result)
  RETURNING id INTO v_id;
  RETURN v_id;
END $function$;
