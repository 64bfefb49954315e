-- The only status changes a match may make (docs/decisions.md, packages/domain/src/arena.ts).
CREATE OR REPLACE FUNCTION matches_status_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (
    ('pending', 'accepted'), ('pending', 'in_progress'), ('pending', 'completed'), ('pending', 'disputed'), ('pending', 'cancelled'),
    ('accepted', 'in_progress'), ('accepted', 'completed'), ('accepted', 'disputed'), ('accepted', 'cancelled'),
    ('in_progress', 'completed'), ('in_progress', 'disputed'), ('in_progress', 'cancelled'),
    ('completed', 'disputed'),
    ('disputed', 'completed'), ('disputed', 'cancelled'), ('disputed', 'accepted')
  ) THEN
    RAISE EXCEPTION 'match %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
