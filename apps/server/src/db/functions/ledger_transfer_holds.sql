-- Moves the held holds of one owner to another (a challenge's stakes to its match).
CREATE OR REPLACE FUNCTION ledger_transfer_holds(p_from uuid, p_challenge uuid, p_match uuid, p_room uuid)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_count integer;
BEGIN
  IF num_nonnulls(p_challenge, p_match, p_room) <> 1 THEN RAISE EXCEPTION 'ledger: a hold has exactly one owner'; END IF;
  WITH locked AS (SELECT id FROM escrow_holds WHERE owner_id = p_from AND status = 'held' ORDER BY id FOR UPDATE)
  UPDATE escrow_holds SET challenge_id = p_challenge, match_id = p_match, room_id = p_room
   WHERE id IN (SELECT id FROM locked);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $function$;
