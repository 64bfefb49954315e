-- A social link changes only from pending to accepted, between the same two users.
CREATE OR REPLACE FUNCTION social_links_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.kind <> OLD.kind OR NEW.from_id <> OLD.from_id OR NEW.to_id <> OLD.to_id
     OR NOT (OLD.status = 'pending' AND NEW.status = 'accepted') THEN
    RAISE EXCEPTION 'social link %: % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
