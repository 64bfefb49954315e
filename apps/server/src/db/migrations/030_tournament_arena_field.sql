-- An arena takes up to 256 players (games pair as they end, no bracket to fill); a knockout still up to 64.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_players;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_players CHECK (
  min_players BETWEEN 4 AND 256 AND max_players BETWEEN 4 AND 256 AND min_players <= max_players
  AND (format = 'arena' OR max_players <= 64)
);
