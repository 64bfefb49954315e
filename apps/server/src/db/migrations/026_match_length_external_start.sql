-- The match length the creator chose (challenges.duration, minutes), kept on the match: its clocks
-- derive from it (domain arena.ts matchTimeControl). NULL for a private room's match: the game's
-- standard time control.
ALTER TABLE matches ADD COLUMN duration integer CHECK (duration BETWEEN 1 AND 600);
UPDATE matches m SET duration = c.duration FROM challenges c WHERE c.id = m.challenge_id;

-- Its clocks and the views (functions/arena_match_view.sql, arena_find_core.sql) read it.

-- An external game (played on the players' own platform, then reported) runs without a refereed
-- state: it is in progress once both players are ready or its scheduled start has come.
ALTER TABLE matches DROP CONSTRAINT matches_running_has_state;
ALTER TABLE matches ADD CONSTRAINT matches_running_has_state CHECK (
  status <> 'in_progress' OR (started_at IS NOT NULL AND (state IS NOT NULL
    OR game_type NOT IN ('tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo', 'ai-rock-paper-scissors'))));
