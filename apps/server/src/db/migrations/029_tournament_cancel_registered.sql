-- Tournaments (issue 27): cancelled by its creator before the start as well as by an admin; a creation's Idempotency-Key; the
-- "registered" notification.
ALTER TABLE tournaments DROP CONSTRAINT tournaments_cancel_reason_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_cancel_reason_check CHECK (cancel_reason IN ('too_few', 'admin', 'creator'));

-- A replay of a creation with the same key answers the same tournament; another request under it is refused.
ALTER TABLE tournaments ADD COLUMN idempotency_key text;
ALTER TABLE tournaments ADD COLUMN request_hash text;
CREATE UNIQUE INDEX tournaments_idempotency ON tournaments (creator_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('match_invitation', 'match_confirmed',
  'match_starting_soon', 'match_reminder', 'match_ready', 'match_in_progress', 'match_move_made', 'match_started', 'match_completed',
  'match_disputed', 'match_forfeit', 'challenge_accepted', 'challenge_created', 'challenge_expired', 'challenge_declined',
  'challenge_reminder', 'payment_received', 'payment_sent', 'credits_earned', 'credits_deducted', 'escrow_released', 'friend_request',
  'friend_accepted', 'follow_request', 'follow_accepted', 'player_online', 'player_joined_room', 'player_joined_challenge',
  'player_joined_pool_challenge', 'system_announcement', 'maintenance_notice', 'feature_update', 'account_update', 'security_alert',
  'tournament_starting_soon', 'tournament_game_ready', 'tournament_eliminated', 'tournament_prize', 'tournament_cancelled',
  'tournament_registered'));
