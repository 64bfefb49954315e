// Every user-facing text SPEC.md names, in one catalogue read by the server, the web app and
// the tests alike. Functions build the texts that carry values.

export const AUTH = {
  accountTypeRequired: 'Account type selection required',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  fullNameRequired: 'Full name is required',
  usernameRequired: 'Username is required',
  phoneRequired: 'Phone number is required',
  dateOfBirthRequired: 'Date of birth is required',
  mustBeAdult: 'You must be 18 or older to create an account',
  passwordTooShort: 'Password must be at least 6 characters',
  loginNoUser: 'Login failed: No user returned',
  registrationNoUser: 'Registration failed: No user returned',
  signupsDisabled:
    'Account creation is temporarily disabled. Please contact support or try signing in if you already have an account.',
  sessionExpiredToast: 'Your session has expired. Please log in again.',
  refreshFailed: 'Session expired. Please log in again.',
  authFailedExpired: 'Authentication failed - session expired',
  authExpired: 'Authentication expired. Please refresh the page and log in again.',
  authFailed: (detail: string) => `Authentication failed: ${detail}`,
  profileFailed: 'Failed to get user profile',
  balanceFailed: 'Failed to get user balance',
  profileTimeout: 'Profile fetch timeout',
  // Ours (SPEC is silent): wrong credentials, duplicates, rate limit, missing session.
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists. Try signing in instead.',
  usernameTaken: 'This username is already taken. Please choose another.',
  invalidEmail: 'Please enter a valid email address',
  tooManyAttempts: (minutes: number) =>
    `Too many sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  signInRequired: 'Please sign in to continue.',
  forbidden: 'Access denied. Please check your permissions.',
  displayNameInvalid: 'Display name must be 1 to 40 characters',
  avatarUrlInvalid: 'Avatar must be an http(s) address or an uploaded image path',
  profileNotFound: 'Player not found',
  phoneInvalid: 'Please enter a valid phone number',
  fullNameTooLong: 'Full name must be at most 100 characters',
} as const;

export const GENERIC = {
  network: 'Connection failed. Please check your internet connection and try again.',
  notFound: 'Service temporarily unavailable. Please try again later.',
  functionMissing: 'Database function not available. Please contact support.',
  timeout: 'Request timed out. Please try again.',
  permission: 'Access denied. Please check your permissions.',
  other: 'An unexpected error occurred. Please try again.',
  functionNotFound: (name: string) =>
    `Database function '${name}' not found. Please ensure the latest migrations are applied.`,
  bucketNotFound: (name: string) => `Storage bucket '${name}' not found. Uploads are temporarily disabled.`,
  noInternet: 'No internet connection',
  connectionTimeout: 'Connection timeout after 5 seconds',
  // Ours: request shape errors.
  malformedJson: 'The request body is not valid JSON.',
  routeNotFound: 'Not found',
} as const;

export const BALANCE = {
  loadFailed: 'Failed to load balance',
  addFailed: 'Failed to add credits',
  operationSuccessTitle: 'Operation Successful',
  operationSuccess: 'Credits will update shortly. Please refresh if needed.',
  added: (amount: string) => `${amount} credits added to your account.`,
  deducted: (amount: string) => `${amount} credits deducted from your account.`,
  insufficientTitle: (currency: string) => `Insufficient ${currency}`,
  insufficient: (amount: string, balance: string) => `Need ${amount} but only have ${balance}`,
  featureComingSoon: 'Feature Coming Soon',
} as const;

export const ERROR_BOUNDARY = {
  network: {
    title: 'Connection Problem',
    text: "We're having trouble connecting to our servers",
    hint: 'Please check your internet connection and try again',
    attempt: (n: number, cap: number) => `Retry attempt ${n}/${cap}`,
  },
  other: {
    title: 'Something went wrong',
    text: 'An unexpected error occurred',
    hint: 'Please try reloading the page or contact support if the problem persists',
  },
  tryAgain: 'Try Again',
  reload: 'Reload Page',
} as const;

export const SHELL_TEXT = {
  checkingAuth: 'Checking authentication...',
  loading: (product: string) => `Loading ${product}`,
  loadingChallenge: 'Loading challenge...',
  notFound: 'Oops! Page not found',
  returnHome: 'Return to Home',
  offline: 'Offline',
  gateTitle: 'Competitive Gaming Platform',
  gateSecure: 'Secure gaming platform with competitive integrity',
  gateJoin: 'Join thousands of players worldwide',
  welcomeBack: 'Welcome Back',
  join: (product: string) => `Join ${product}`,
  signInToViewNotifications: 'Sign in to view notifications',
  arrivesSoon: 'This screen arrives soon.',
} as const;

// Challenges: creation, acceptance, cancel and code search (SPEC §5, §8). Texts marked "ours"
// fill cases SPEC does not word.
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
  virtualOnlyVTokens: (currencyTitle: string) => `Virtual accounts play with VTokens only; ${currencyTitle} are not available in Virtual Mode.`,
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
  invalidOwner: 'An escrow belongs to exactly one challenge, match or room.',
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

// The marketplace and the create-challenge wizard (SPEC §2, §4, §8). Step names are SPEC's;
// texts marked "ours" fill cases SPEC does not word.
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

// The live arena (ours: SPEC words only the notification titles).
export const ARENA = {
  notAPlayer: 'Only the players of this match can play in it.',
  notStarted: 'The match has not started yet: both players must be ready.',
  matchOver: 'The match is already over.',
  staleVersion: (yours: number, current: number) =>
    `This match has changed since you last saw it (your version ${yours}, now ${current}). Reload it and try again.`,
  changedMeanwhile: 'This match changed while your request was being played. Reload it and try again.',
  timeUp: 'Your time ran out: the game is lost on time.',
  notWebGame: 'This game is played outside Versus: report the result instead.',
  drawNotAllowed: 'Draws can be offered in chess and checkers only, while a game is being played.',
  drawNothingToAnswer: 'There is no draw offer to answer.',
  drawAlreadyOffered: 'You have already offered a draw.',
  noShowForfeit: 'You did not show up within 5 minutes of the start, so the match was forfeited.',
  matchVoid: 'Neither player showed up within 5 minutes of the start: the match is void and both stakes were returned.',
  privateMatch: 'This match is private: only its players can watch it.',
  replayNotFinished: 'The replay is available once the match is over.',
  busy: 'The arena is restarting. Please try again in a moment.',
  // SPEC §4 notifications on a match's changes.
  startedTitle: 'Match Started',
  yourTurn: 'Your turn',
  opponentJoined: 'Your opponent has joined',
} as const;

// The live arena and spectator screens (ours: SPEC names the screens, not their texts).
export const LIVE_ARENA = {
  title: 'Live Arena',
  virtualTitle: 'Game Arena',
  myMatches: 'My matches',
  noMatches: 'No active matches right now.',
  noMatchesDetail: 'Accept a challenge in the marketplace and it will be waiting for you here.',
  browseChallenges: 'Browse Challenges',
  chooseMatch: 'Choose a match to open its board.',
  loadFailed: 'Failed to load the match',
  listFailed: 'Failed to load your matches',
  retry: 'Try again',
  externalGame: 'This game is played outside Versus: report the result from My Matches.',
  openMatches: 'Open My Matches',
  bestOf3: 'Best of 3',
  gameNumber: (n: number) => `Game ${n}`,
  youWin: (amount: string) => `Win ${amount}`,
  ready: "I'm Ready",
  youAreReady: "You're ready",
  readyState: 'Ready',
  notReady: 'Not here yet',
  waitingForReady: (name: string) => `Waiting for ${name} to get ready`,
  startsWhenReady: 'The match starts as soon as both players are ready.',
  noShowAt: (time: string) => `A player not ready by ${time} forfeits.`,
  yourTurn: 'Your turn',
  theirTurn: (name: string) => `${name} to move`,
  throwNow: 'Make your throw',
  waitingForOpponent: 'Waiting for opponent',
  resign: 'Resign',
  resignTitle: 'Resign this match?',
  resignBody: (stake: string) => `You give up the whole match (every game left) and your ${stake} stake goes to your opponent.`,
  resignConfirm: 'Resign match',
  keepPlaying: 'Keep playing',
  offerDraw: 'Offer draw',
  drawOffered: 'Draw offered',
  drawOfferFrom: (name: string) => `${name} offers a draw`,
  acceptDraw: 'Accept draw',
  declineDraw: 'Decline',
  playerJoined: (name: string) => `${name} has joined the match`,
  premoveQueued: 'Premove set: it plays the moment your turn comes.',
  premoveDropped: 'Your premove was no longer legal, so it was not played.',
  cancelPremove: 'Cancel premove',
  moveList: 'Moves',
  noMovesYet: 'No moves yet.',
  promoteTo: 'Promote to',
  won: 'You won!',
  lost: 'You lost',
  drawn: 'Match drawn',
  voided: 'Match void',
  winnerIs: (name: string) => `${name} wins the match`,
  paid: (amount: string) => `+${amount} paid to your wallet`,
  stakeBack: (amount: string) => `Your ${amount} stake is back in your wallet`,
  stakeLost: (amount: string) => `Your ${amount} stake went to the winner`,
  rating: (before: number, after: number) => `Rating ${before} → ${after}`,
  rematch: 'Rematch',
  backToMatches: 'All my matches',
  spectating: 'Spectating',
  watchLive: 'Live, read-only: moves appear as they are played.',
  watchInstead: 'Watch as a spectator',
  live: 'Live',
  waiting: 'Waiting',
  vs: 'vs',
  you: 'You',
  rollDice: 'Roll',
  chooseToken: 'Choose a token to move',
  noTokenMoves: 'No token can move',
  computer: 'Computer',
  youThrew: (t: string) => `You threw ${t}`,
  threw: (name: string) => `${name} threw`,
  reasons: {
    'games-won': 'games won',
    'drawn-game-cap': 'three drawn games',
    resignation: 'resignation',
    forfeit: 'forfeit (no-show)',
    void: 'neither player showed up',
    checkmate: 'checkmate',
    stalemate: 'stalemate',
    'threefold-repetition': 'threefold repetition',
    'fifty-move-rule': 'fifty-move rule',
    'insufficient-material': 'insufficient material',
    'three-in-a-row': 'three in a row',
    'board-full': 'a full board',
    'no-moves-left': 'no moves left',
    'forty-move-rule': 'forty-move rule',
    'all-tokens-home': 'all tokens home',
    throw: 'the better throw',
    'same-throw': 'the same throw',
    timeout: 'time out',
    'timeout-vs-insufficient-material': 'time out against insufficient material',
    agreement: 'agreement',
  } as Record<string, string>,
} as const;

// Private rooms (SPEC §5, §8 Private rooms). Texts marked "ours" fill cases SPEC does not word.
export const ROOMS = {
  invalidBet: 'Invalid bet amount selected.',
  insufficientToCreate: 'Insufficient credits to create this room.',
  activeRoom: (code: string) => `You already have an active room (${code}). Please cancel it first or wait for it to expire.`,
  activeRoomClient: 'You already have an active private room. Please cancel it first or wait for it to expire.',
  createError: (message: string) => `Error creating private room: ${message}`,
  createFailed: 'Failed to create private room',
  networkError: 'Network connection error. Please check your internet connection and try again.',
  codeLength: 'Room code must be 6 characters',
  authRequired: 'Authentication required',
  notFound: 'Room not found',
  notFoundJoin: 'Room not found. Please check the room code and try again.',
  full: 'This room is already full.',
  expired: 'This room has expired. Please ask for a new room code.',
  insufficientToJoin: 'Insufficient credits to join this room.',
  ownRoom: 'You cannot join your own room.',
  joinError: (message: string) => `Error joining private room: ${message}`,
  cancelError: (message: string) => `Error canceling private room: ${message}`,
  // Ours.
  webGamesOnly: 'Private rooms are for games played in the browser.',
  messageTooLong: (max: number) => `Message must be at most ${max} characters.`,
  cancelForbidden: "Only the room's creator can cancel it.",
  notCancellable: 'This room can no longer be cancelled.',
  created: (code: string) => `Room ${code} created. Share the code with a friend.`,
  joinFailed: 'Failed to join private room',
  cancelFailed: 'Failed to cancel private room',
} as const;

// Results of external games, disputes and the admin API (SPEC §5 Avatar upload for evidence;
// texts marked "ours" fill cases SPEC does not word).
export const RESULTS = {
  fileNotImage: 'File must be an image',
  unsupportedImage: (format: string) => `Unsupported image format: ${format}`,
  fileTooLarge: 'File size must be less than 5MB',
  // Ours.
  matchNotFound: 'Match not found.',
  notPlayer: 'Only the players of this match can do this.',
  notExternal: 'Games played in the browser are refereed by the arena; there is nothing to report.',
  notStarted: 'The match has not started yet: results can be reported after the scheduled start.',
  alreadyReported: 'You have already reported the result of this match.',
  matchOver: 'This match is already settled.',
  outcomeRequired: "Outcome must be 'win' or 'loss'.",
  underReview: 'The reported results disagree: the match is under review by an admin.',
  reportRecorded: 'Your result is recorded. Waiting for your opponent to confirm.',
  noShowTooEarly: 'A no-show can be claimed 10 minutes after the scheduled start.',
  noShowExists: 'A no-show claim is already open for this match.',
  noShowNone: 'There is no open no-show claim against you.',
  noShowClaimed: 'Your opponent says you did not show up: answer within 5 minutes or forfeit the match.',
  chatEmpty: 'Message cannot be empty.',
  chatTooLong: 'Message must be at most 500 characters.',
  chatPlayersOnly: 'Only the players of this match can write in its chat.',
  statementEmpty: 'Statement cannot be empty.',
  disputeNotOpen: 'This dispute is not open.',
  disputeNotFound: 'Dispute not found.',
  alreadyResolved: 'This dispute has already been resolved.',
  resolutionOutcomeRequired: "Outcome must be 'player1', 'player2', 'draw' or 'void'.",
  reasonRequired: 'A reason is required.',
  evidenceNotFound: 'Evidence not found.',
  evidenceMissing: 'Choose an image to upload.',
  resolved: 'An admin resolved the dispute.',
} as const;
