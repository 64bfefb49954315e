-- The only status changes a tournament may make (domain tournaments/lifecycle.ts TOURNAMENT_TRANSITIONS).
CREATE OR REPLACE FUNCTION tournaments_status_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (('scheduled', 'running'), ('scheduled', 'cancelled'), ('running', 'finished'), ('running', 'cancelled')) THEN
    RAISE EXCEPTION 'tournament %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
