import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RefreshCw, WifiOff } from 'lucide-react';
import { SHELL_TEXT } from '@versus/domain';
import { Button } from '../ui/Button.tsx';
import { checkBackend, useConnectivity } from './connectivity.ts';

/** SPEC §2: "Offline" at bottom-left while the browser reports no connection. */
export function OfflineBadge() {
  const { online } = useConnectivity();
  if (online) return null;
  return (
    <div
      role="status"
      data-testid="offline-badge"
      className="fixed bottom-[calc(5.5rem+env(safe-area-inset-bottom))] left-4 z-[60] inline-flex items-center gap-2 rounded-full border border-warning/50 bg-surface/95 px-3.5 py-2 text-sm font-bold text-warning shadow-lg shadow-black/30 backdrop-blur md:bottom-4"
    >
      <WifiOff className="size-4" aria-hidden />
      {SHELL_TEXT.offline}
    </div>
  );
}

/** The mobile banner: offline, or the server cannot be reached; Retry checks again. */
export function OfflineBanner() {
  const { online, backend } = useConnectivity();
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  if (online && backend !== 'down') return null;

  const retry = async () => {
    setChecking(true);
    try {
      const status = await checkBackend();
      if (status === 'up') await queryClient.refetchQueries({ type: 'active' });
    } finally {
      setChecking(false);
    }
  };

  return (
    <div
      data-testid="offline-banner"
      className="sticky top-16 z-40 flex items-center gap-3 border-b border-warning/40 bg-warning/15 px-4 py-2.5 text-sm backdrop-blur md:hidden"
    >
      <WifiOff className="size-4 shrink-0 text-warning" aria-hidden />
      <p className="flex-1 font-medium">{online ? "Can't reach Versus right now." : "You're offline. Some features won't work."}</p>
      <Button size="sm" variant="secondary" onClick={() => void retry()} loading={checking}>
        {!checking && <RefreshCw className="size-3.5" aria-hidden />}
        Retry
      </Button>
    </div>
  );
}
