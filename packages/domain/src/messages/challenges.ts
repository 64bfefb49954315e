// Challenges, the create-challenge wizard and the marketplace.
// Challenges (SPEC §5, §8); texts marked "ours" fill cases SPEC does not word.
export const CHALLENGE = {
  // Titles of the creation toasts (SPEC §8).
  errorTitle: 'Error',
  authRequiredTitle: 'Authentication Required',
  gamertagRequiredTitle: 'Gamertag Required',
  invalidStakeTitle: 'Invalid Stake Amount',
  createErrorTitle: 'Error creating challenge',
  createdTitle: 'Challenge Created',
  // Creation.
  signInToCreate: 'Please sign in to create challenges',
  gamertagRequired: 'Please enter your gamertag/username for this platform.',
  invalidStake: 'Stake must be between $1 and $1000.',
  createFailed: 'Failed to create challenge. Please try again.',
  /** "Insufficient Credits" or "Insufficient Pcredits" (VTokens for virtual accounts). */
  insufficientTitle: (currencyTitle: string) => `Insufficient ${currencyTitle}`,
  insufficientToCreate: (currencyTitle: string, currencyLabel: string, need: string, have: string) =>
    `Insufficient ${currencyTitle}: Need ${need} but only have ${have}. Please add more ${currencyLabel} to create this challenge.`,
  escrowFailed: (detail: string) => `Failed to create escrow: ${detail}`,
  poolFailed: (detail: string) => `Failed to create challenge pool: ${detail}`,
  escrowDialogInsufficient: (symbol: string, amount: string) =>
    `Insufficient credits for escrow lock. You need ${symbol}${amount} to continue.`,
  /** "$25 locked in escrow" (the amount as the currency writes it: "$25", "25 VT"). */
  lockedInEscrow: (amount: string) => `${amount} locked in escrow`,
  // Ours.
  chooseGame: 'Please choose a game.',
  chooseDuration: 'Please choose a duration.',
  chooseTime: 'Please choose a time for the match.',
  platformRequired: 'Please choose a platform for this game.',
  gamertagTooLong: (max: number) => `Gamertag must be at most ${max} characters.`,
  platformNotSupported: (game: string, platform: string) => `${game} cannot be played on ${platform}.`,
  durationInvalid: (min: number, max: number) => `Please choose a duration between ${min} and ${max} minutes.`,
  messageTooLong: (max: number) => `Message must be at most ${max} characters.`,
  titleTooLong: (max: number) => `Title must be at most ${max} characters.`,
  scheduleInPast: 'Please choose a match time in the future.',
  scheduleTooFar: 'Please choose one of the offered match times (up to 12 hours ahead).',
  playersInvalid: (max: number) => `This game takes 2 to ${max} players.`,
  poolMustBePrivate: 'Challenges for more than 2 players must be private.',
  virtualPrivateOnly: 'Virtual accounts can create private challenges only: share the code with a friend to play.',
  idempotencyReused: 'This Idempotency-Key was already used for a different challenge.',
  // A replayed creation whose challenge has closed since: its stake is no longer in escrow.
  createdThenCancelled: 'This challenge was cancelled; your stake was returned.',
  createdThenExpired: 'This challenge expired; your stake was returned.',
  createdThenCompleted: 'This challenge has been played; its stakes were settled.',
  // Acceptance (SPEC §8).
  signInToAccept: 'Please sign in to accept challenges',
  notFound: 'Challenge not found',
  notAvailable: 'Challenge is no longer available',
  ownChallenge: 'You cannot accept your own challenge',
  insufficientToAccept: (currencyLabel: string, need: string, have: string) =>
    `Insufficient ${currencyLabel} to accept this challenge - Need ${need}, have ${have}`,
  currencyMismatch: (challengeCurrency: string, yourCurrency: string) =>
    `This challenge is staked in ${challengeCurrency}, but your account uses ${yourCurrency}.`,
  alreadyAccepted: 'This challenge has already been accepted by another player.',
  // SPEC: "creator's escrow record not found (exact wording: not shown)".
  creatorEscrowMissing: "The creator's stake was not found in escrow, so this challenge cannot be accepted.",
  noLongerAvailable: 'This challenge is no longer available.',
  accepted: (amount: string, currencyLabel: string) => `Challenge accepted! ${amount} ${currencyLabel} locked in escrow.`,
  acceptFailed: 'Failed to accept challenge. Please try again.',
  // Ours: pools, cancel, matches.
  alreadyJoined: 'You have already joined this challenge.',
  joinedPool: (amount: string, currencyLabel: string, joined: number, max: number) =>
    `Joined the challenge (${joined}/${max} players). ${amount} ${currencyLabel} locked in escrow.`,
  onlyCreatorCancels: 'Only the creator can cancel this challenge.',
  cancelNotOpen: 'Only open challenges can be cancelled.',
  cancelled: (amount: string, currencyLabel: string) => `Challenge cancelled. ${amount} ${currencyLabel} returned to your balance.`,
  // Code search (SPEC §5).
  invalidCode: 'Please enter a valid 6-character code',
  matchNotFound: 'Match not found',
  matchForbidden: 'Only the players of this match can view it.',
} as const;

// The marketplace and the wizard (SPEC §2, §4, §8); texts marked "ours" fill cases SPEC does not word.
export const WIZARD = {
  steps: ['Choose Game', 'Set Stakes', 'Schedule', 'Confirm'],
  escrowSteps: {
    auth: 'User Authentication',
    balance: 'Credit Balance Check',
    lock: 'Escrow Lock',
    update: 'System Update',
  },
  // Ours.
  launch: 'Launch Challenge',
  retry: 'Retry',
  cancel: 'Cancel',
  rematchAgainst: (name: string) => `Rematch against ${name}`,
} as const;

export const MARKETPLACE = {
  title: 'Marketplace',
  // Ours: SPEC hides the marketplace in virtual mode.
  virtualHidden: 'The marketplace is not available in Virtual Mode.',
  virtualHiddenDetail: 'Create a private challenge and share its code with a friend instead.',
  cancelTitle: 'Cancel this challenge?',
  acceptTitle: 'Accept Challenge',
  noneOpen: 'No open challenges right now. Be the first to post one!',
  noneMatch: 'No open challenges match these filters.',
  loadFailed: 'Failed to load challenges',
} as const;
