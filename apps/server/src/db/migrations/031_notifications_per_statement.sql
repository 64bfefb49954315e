-- Notifications are stored from their events once per statement (functions/notifications_from_event.sql),
-- not once per event row: the new function reads the statement's rows as `added`.
DROP TRIGGER realtime_events_notification ON realtime_events;
CREATE TRIGGER realtime_events_notification AFTER INSERT ON realtime_events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION notifications_from_event();
