// The ledger and the wallet.
// Ledger and wallet refusals (ours: SPEC words only the insufficient-balance toast, in BALANCE).
export const LEDGER = {
  amountNotNumber: 'Amount must be a number',
  amountPositive: 'Amount must be greater than 0',
  amountDecimals: 'Amount can have at most 2 decimal places',
  amountTooLarge: 'Amount is too large',
  keyRequired: 'A request key (idempotencyKey) is required so a retry never moves money twice.',
  keyReused: 'This request key was already used for a different request.',
  userNotFound: 'User not found',
  /** A virtual account touching credits or pcredits. */
  virtualOnlyVTokens: (currencyTitle: string) =>
    `Virtual accounts play with VTokens only; ${currencyTitle} are not available in Virtual Mode.`,
  /** A real account touching VTokens. */
  vtokensVirtualOnly: 'VTokens can only be spent or staked by a virtual account. Switch to Virtual Mode to use them.',
  /** A real account touching the other real currency (a player's pcredits, a promoter's credits). */
  wrongRealCurrency: (currencyTitle: string, yourTitle: string) =>
    `Your account uses ${yourTitle}; ${currencyTitle} cannot be spent or staked from it.`,
  /** SPEC §5: what virtual accounts may not do. */
  virtualRestricted: {
    deposit: 'Real-money deposits are not available for virtual accounts.',
    withdrawal: 'Real-money withdrawals are not available for virtual accounts.',
    crypto: 'Crypto trading is not available for virtual accounts.',
    highStakes: 'High-stakes matches are not available for virtual accounts.',
    tournament: 'Tournament entry is not available for virtual accounts.',
  },
  addAdminOnly: 'Adding credits needs real payments, which are not available yet.',
  alreadyHeld: 'A stake is already locked in escrow for this.',
  nothingHeld: 'No stake is locked in escrow for this.',
  winnerWithoutStake: 'The winner must be a player with a stake in escrow.',
  stakesMissing: 'Both stakes must be locked in escrow before the result is settled.',
  mixedCurrencies: 'The stakes in escrow are in different currencies.',
  invalidOwner: 'An escrow belongs to exactly one challenge, match, room or tournament.',
  payoutMismatch: 'The prizes must add up to the prize pool held in escrow.',
} as const;

// The wallet page, the header wallet dropdown and the virtual-mode overlay card (SPEC §1, §2).
export const WALLET = {
  title: 'Wallet',
  available: 'Available',
  inGames: 'In Games',
  status: 'Status',
  demoMode: 'Demo Mode',
  active: 'Active',
  promoterEcosystem: 'Promoter Ecosystem',
  playerEcosystem: 'Player Ecosystem',
  virtualEcosystem: 'Virtual Mode',
  addFunds: 'Add Funds',
  transactionHistory: 'Transaction History',
  paymentMethods: 'Payment Methods',
  /** The beta toast's second line under BALANCE.featureComingSoon. */
  comingSoonDetail: (feature: string) => `${feature} is not available during the beta. Stay tuned!`,
  openWallet: 'Open Wallet',
  recentActivity: 'Recent activity',
  noActivity: 'No activity yet. Your grants, stakes and winnings will show up here.',
  activityFailed: 'Failed to load your recent activity',
  loadMore: 'Load more',
  retry: 'Retry',
  virtualMode: 'Virtual Mode',
  weeklyTokens: 'Weekly Tokens',
  wins: 'Wins',
  losses: 'Losses',
  games: 'Games',
  theme: 'Theme',
  retroLocked: 'Retro',
  aiMode: 'AI Mode',
  nextReset: 'Next Reset',
  showVirtualCard: 'Virtual Mode card',
} as const;
