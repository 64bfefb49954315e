import { toast } from 'sonner';
import { BALANCE, WALLET } from '@versus/domain';

/** SPEC §1: the wallet actions only show the "Feature Coming Soon" beta toast. */
export function showComingSoon(feature: string): void {
  toast.info(BALANCE.featureComingSoon, { id: `coming-soon:${feature}`, description: WALLET.comingSoonDetail(feature) });
}
