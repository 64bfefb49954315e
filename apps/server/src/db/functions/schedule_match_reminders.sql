-- The reminders of one match for both players: 1 hour before, at the start, 5 minutes after.
-- Reminders not yet sent (timers included) follow the scheduled time; new ones are written only
-- when due after `not_before`: one whose time had already come when the match was made would
-- only repeat what its accept/join notification just said.
CREATE OR REPLACE FUNCTION schedule_match_reminders(p_match_id uuid, p_player1 uuid, p_player2 uuid, p_scheduled timestamp with time zone, p_not_before timestamp with time zone)
 RETURNS void
 LANGUAGE sql
AS $function$
  UPDATE match_reminders
     SET due_at = p_scheduled - make_interval(mins => minutes_before)
   WHERE match_id = p_match_id AND status = 'scheduled';
  INSERT INTO match_reminders (match_id, user_id, kind, minutes_before, due_at)
  SELECT p_match_id, p.user_id, k.kind, k.minutes_before, p_scheduled - make_interval(mins => k.minutes_before)
    FROM (VALUES (p_player1), (p_player2)) AS p (user_id),
         (VALUES ('before_1h', 60), ('at_start', 0), ('closing_5m', -5)) AS k (kind, minutes_before)
   WHERE p_scheduled - make_interval(mins => k.minutes_before) > p_not_before
  ON CONFLICT (match_id, user_id, kind, minutes_before) DO NOTHING;
$function$;
