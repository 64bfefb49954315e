-- unread -> read | archived | dismissed; read -> archived | dismissed; archived -> dismissed.
CREATE OR REPLACE FUNCTION notifications_status_transition()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT (OLD.status, NEW.status) IN (
    ('unread', 'read'), ('unread', 'archived'), ('unread', 'dismissed'),
    ('read', 'archived'), ('read', 'dismissed'), ('archived', 'dismissed')
  ) THEN
    RAISE EXCEPTION 'notification %: status % cannot become %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
