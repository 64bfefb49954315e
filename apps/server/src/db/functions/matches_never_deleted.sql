-- Matches are history: never deleted or truncated.
CREATE OR REPLACE FUNCTION matches_never_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION 'matches are never deleted' USING ERRCODE = 'restrict_violation';
END $function$;
