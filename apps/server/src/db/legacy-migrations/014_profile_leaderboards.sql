-- Profiles and leaderboards (issue 9).
--
-- The global leaderboard ranks real accounts by one number per player: the mean of their
-- per-game Glicko-2 ratings weighted by games played. It is kept on the profile by a trigger on
-- `ratings`, so finishMatch (which writes ratings under the players' profile locks) keeps it
-- current at no extra round trip. The places (`rank`, `global_rank`, SPEC §3, default 5000 for
-- the unranked) are recomputed by the `leaderboards.ranks` job (leaderboards.repository.ts);
-- the leaderboard and profile APIs compute places live from the ratings.

ALTER TABLE profiles ADD COLUMN global_rating double precision;

CREATE FUNCTION profiles_global_rating() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE profiles
     SET global_rating = (SELECT sum(r.rating * r.games) / nullif(sum(r.games), 0) FROM ratings r WHERE r.user_id = NEW.user_id)
   WHERE id = NEW.user_id;
  RETURN NULL;
END $$;

CREATE TRIGGER ratings_global_rating AFTER INSERT OR UPDATE OF rating, games ON ratings
  FOR EACH ROW EXECUTE FUNCTION profiles_global_rating();

UPDATE profiles p
   SET global_rating = g.rating
  FROM (SELECT user_id, sum(rating * games) / nullif(sum(games), 0) AS rating FROM ratings GROUP BY user_id) g
 WHERE g.user_id = p.id;

-- The global board (real accounts with a rating), best first.
CREATE INDEX profiles_global_board ON profiles (global_rating DESC, id)
  WHERE account_type = 'real' AND global_rating IS NOT NULL;

-- A game's board, best first, ties in id order (005 had (game, rating DESC)).
DROP INDEX ratings_game;
CREATE INDEX ratings_game ON ratings (game, rating DESC, user_id);
