-- A profile's global rating: the mean of its game ratings, weighted by games played.
CREATE OR REPLACE FUNCTION profiles_global_rating()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE profiles
     SET global_rating = (SELECT sum(r.rating * r.games) / nullif(sum(r.games), 0) FROM ratings r WHERE r.user_id = NEW.user_id)
   WHERE id = NEW.user_id;
  RETURN NULL;
END $function$;
