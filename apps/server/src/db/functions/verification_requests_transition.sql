-- A verification request is decided (approved, rejected) or cancelled only while pending.
CREATE OR REPLACE FUNCTION verification_requests_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT (OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected', 'cancelled')) THEN
    RAISE EXCEPTION 'verification request %: % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
