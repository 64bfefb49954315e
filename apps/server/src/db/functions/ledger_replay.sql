-- The first result of an earlier call with this key, or NULL if the key is new.
CREATE OR REPLACE FUNCTION ledger_replay(p_key text, p_kind text, p_request jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  op ledger_operations;
BEGIN
  SELECT * INTO op FROM ledger_operations WHERE idempotency_key = p_key;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF op.kind <> p_kind OR op.request_hash <> md5(p_request::text)::uuid THEN
    RETURN '{"ok": false, "error": "key_reused"}';
  END IF;
  RETURN op.result || jsonb_build_object('operationId', op.id, 'replayed', true);
END $function$;
