import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LIVE_ARENA } from '@versus/domain';
import { useRealtime } from '../../realtime/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { currentStatus } from '../notifications/current-status.ts';
import { stillOpen } from '../notifications/still-current.ts';
import { monitorAction } from './monitor.ts';

/** Whether the match still waits for its players (true when its status cannot be read). */
const stillActive = (matchId: string): Promise<boolean> =>
  currentStatus.match(matchId).then(
    (status) => stillOpen({ kind: 'match', id: matchId }, status),
    () => true,
  );

/** Mounted once in the shell: follows my user topic and takes me to a match an opponent joined. */
export default function MatchMonitor() {
  const { user } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRealtime(user ? `user:${user.id}` : null, (update) => {
    if (update.kind !== 'event') return;
    const action = monitorAction(update.type, update.payload, location);
    if (action.kind === 'none') return;
    void queryClient.invalidateQueries({ queryKey: ['arena'] });
    // A join heard late (a reconnect's catch-up) of a match already over: nothing to go to.
    void stillActive(action.matchId).then((active) => {
      if (!active) return;
      const message = LIVE_ARENA.opponentJoined(action.opponent);
      if (action.kind === 'go') {
        toast.success(message, { id: `monitor-${action.matchId}` });
        navigate(action.path);
      } else {
        toast.info(message, {
          id: `monitor-${action.matchId}`,
          action: { label: LIVE_ARENA.goToArena, onClick: () => void navigate(action.path) },
        });
      }
    });
  });
  return null;
}
