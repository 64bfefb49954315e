import type { App } from './app.ts';
import type { AppContext } from './context.ts';
import { authFeature } from './auth/auth.routes.ts';
import { realtimeFeature } from './realtime/realtime.routes.ts';
import { walletFeature } from './wallet/wallet.routes.ts';
import { virtualStatsFeature } from './wallet/virtual-stats.routes.ts';
import { challengesFeature } from './challenges/challenges.routes.ts';
import { arenaFeature } from './arena/arena.routes.ts';
import { roomsFeature } from './rooms/rooms.routes.ts';
import { resultsFeature } from './results/results.routes.ts';
import { adminFeature } from './admin/admin.routes.ts';
import { historyFeature } from './results/history.routes.ts';
import { notificationsFeature } from './notifications/notifications.routes.ts';
import { pushFeature } from './notifications/push/push.routes.ts';
import { remindersFeature } from './notifications/reminders/reminders.routes.ts';
import { profileFeature } from './profile/profile.routes.ts';
import { leaderboardsFeature } from './leaderboards/leaderboards.routes.ts';
import { socialFeature } from './social/social.routes.ts';
import { verificationFeature } from './verification/verification.routes.ts';
import { feedbackFeature } from './feedback/feedback.routes.ts';

export type Feature = (app: App, ctx: AppContext) => Promise<void> | void;

/** Each feature folder contributes one entry: its routes, sockets and jobs. */
export const features: Feature[] = [authFeature, realtimeFeature, walletFeature, virtualStatsFeature, challengesFeature, arenaFeature, roomsFeature, resultsFeature, adminFeature, historyFeature, notificationsFeature, pushFeature, remindersFeature, socialFeature, verificationFeature, feedbackFeature, profileFeature, leaderboardsFeature];
