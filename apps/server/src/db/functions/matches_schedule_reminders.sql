-- In the transaction that creates (or reschedules) the match, whichever code path makes it:
-- accepting a challenge, filling a pool, joining a room. A rolled-back match has no reminders.
CREATE OR REPLACE FUNCTION matches_schedule_reminders()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.scheduled_time IS NOT NULL AND NEW.status IN ('pending', 'accepted') THEN
    PERFORM schedule_match_reminders(NEW.id, NEW.player1_id, NEW.player2_id, NEW.scheduled_time,
      CASE WHEN TG_OP = 'INSERT' THEN least(NEW.created_at, now()) ELSE now() END);
  END IF;
  RETURN NEW;
END $function$;
