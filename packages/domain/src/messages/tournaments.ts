// Tournaments (issue 27; ours: SPEC names tournaments only as a highlight and a virtual-account
// restriction, worded in LEDGER.virtualRestricted.tournament).
export const TOURNAMENT = {
  // Creation.
  nameLength: (min: number, max: number) => `Tournament name must be ${min} to ${max} characters.`,
  chooseGame: 'Please choose a game played in the browser: tic-tac-toe, rock-paper-scissors, chess, checkers or ludo.',
  chooseFormat: 'Please choose a format: knockout or arena.',
  chooseCurrency: 'Please choose the currency the tournament is played for.',
  chooseEntry: 'Please choose an entry stake, or a sponsored prize.',
  invalidStake: 'Entry stake must be between $1 and $1000.',
  invalidPrize: (max: number) => `Sponsored prize must be a whole amount between 1 and ${max}.`,
  sponsorsOnly: 'Only promoters and admins can sponsor a tournament.',
  virtualVTokensOnly: 'Virtual accounts can create VToken tournaments only.',
  ownCurrencyOnly: (yourCurrency: string) => `Your tournaments are played for ${yourCurrency}, the currency your account uses.`,
  playersInvalid: (min: number, max: number) => `A tournament takes ${min} to ${max} players.`,
  minAboveMax: 'The minimum number of players cannot be above the maximum.',
  chooseMatchLength: 'Please choose a match length.',
  matchLengthInvalid: (min: number, max: number) => `Please choose a match length between ${min} and ${max} minutes.`,
  chooseMatchFormat: 'Please choose a match format: best of 1 or best of 3.',
  matchFormatKnockoutOnly: 'Arena games are single games: a match format is for knockout tournaments only.',
  arenaDurationInvalid: (min: number, max: number) => `An arena lasts between ${min} and ${max} minutes.`,
  arenaDurationArenaOnly: 'Only arena tournaments have a fixed duration.',
  chooseStart: 'Please choose when the tournament starts.',
  startTooSoon: (minutes: number) => `The tournament must start at least ${minutes} minutes from now, so players can enter.`,
  startTooFar: (days: number) => `The tournament must start within ${days} days.`,
  // Entry (SPEC's own text for virtual accounts is LEDGER.virtualRestricted.tournament).
  notFound: 'Tournament not found',
  entryClosed: 'Entries for this tournament are closed.',
  full: 'This tournament is full.',
  alreadyEntered: 'You have already entered this tournament.',
  vtokensVirtualOnly: 'VToken tournaments are for virtual accounts only. Switch to Virtual Mode to enter.',
  currencyMismatch: (tournamentCurrency: string, yourCurrency: string) =>
    `This tournament is played for ${tournamentCurrency}, but your account uses ${yourCurrency}.`,
  entered: (amount: string) => `You are in! ${amount} locked in escrow until the tournament ends.`,
  enteredFree: 'You are in! Entry is free: the prize is sponsored.',
  // Leaving.
  notEntered: 'You have not entered this tournament.',
  leftRefunded: (amount: string) => `You left the tournament. Your ${amount} stake is back in your wallet.`,
  leftFree: 'You left the tournament.',
  pausedArena: 'You are paused: you will not be paired until you come back.',
  resumedArena: 'Welcome back: you will be paired as soon as an opponent is free.',
  resumeArenaOnly: 'Only a running arena tournament has a pause to come back from.',
  forfeitedKnockout: 'You left the tournament: your current match is forfeited.',
  nothingToLeave: 'This tournament is over.',
  // Start and end.
  cancelledTooFew: (min: number) => `Cancelled: fewer than ${min} players entered. Every stake was returned.`,
  cancelledSponsor: 'The sponsored prize was returned to the sponsor.',
  noShowLoss: 'You did not get ready in time, so the game was lost.',
  // Cancelling (an admin, or the creator before the start).
  cancelNotYours: 'Only an admin or the tournament’s creator can cancel it.',
  cancelStarted: 'This tournament has started: only an admin can cancel it now.',
  cancelled: 'The tournament was cancelled. Every stake was returned.',
  cancelledSponsored: 'The tournament was cancelled. The sponsored prize was returned to the sponsor.',
  // Idempotency-Key.
  idempotencyReused: 'This Idempotency-Key was already used for a different request.',
  // Results.
  matchNotReady: 'This match is still waiting for its players.',
  matchDecided: 'This match already has a winner.',
  notInMatch: 'The winner must be one of the two players of this match.',
  unknownMatch: 'There is no such match in this bracket.',
} as const;

// The labels a tournament page and the create form show (ours).
export const TOURNAMENT_VIEW = {
  title: 'Tournaments',
  formats: { knockout: 'Knockout', arena: 'Arena' },
  matchFormats: { 'best-of-1': 'Best of 1', 'best-of-3': 'Best of 3' },
  sponsored: 'Sponsored',
  freeEntry: 'Free entry',
  winnerTakesAll: 'Winner takes all',
  prizePool: 'Prize pool',
  /** "1st", "2nd", "3rd", "4th"... */
  place: (n: number) => ordinal(n),
  /** A place several players share: "3rd–4th". */
  places: (from: number, to: number) => (from === to ? ordinal(from) : `${ordinal(from)}–${ordinal(to)}`),
  /** Named from the end: the last round is the final. */
  roundName: (roundsLeft: number) =>
    roundsLeft === 1 ? 'Final' : roundsLeft === 2 ? 'Semifinals' : roundsLeft === 3 ? 'Quarterfinals' : `Round of ${2 ** roundsLeft}`,
  bye: 'Bye',
  decider: 'Deciding game',
  deciderRule: 'A drawn match goes to one deciding game with the first move swapped.',
  drawOdds: 'A drawn deciding game goes to the player who moved second.',
  deciderReplay: 'A drawn deciding game is played again until someone wins.',
  paused: 'Paused',
  gameCounts: 'The result counts in the tournament.',
  resignBody: 'You give up the whole match (every game left): your opponent wins it in the tournament.',
  cancelledNotice: 'This tournament was cancelled: every stake was returned.',
  cancel: 'Cancel tournament',
  cancelTitle: 'Cancel this tournament?',
  cancelBody: 'Every stake goes back to its player, a sponsored prize to its sponsor, and games being played end void. No prize is paid.',
  keep: 'Keep it',
  onFire: 'On a streak: double points',
  points: (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`,
  // The tournament page.
  statuses: { scheduled: 'Entries open', running: 'Live', finished: 'Finished', cancelled: 'Cancelled' },
  retry: 'Try again',
  /** The player's buttons: a pause is a leave while an arena runs. */
  actions: { join: 'Join', leave: 'Leave', pause: 'Pause', resume: 'Resume' },
  gameReady: 'Your game is ready',
  playNow: 'Play now',
  bracket: 'Bracket',
  standings: 'Standings',
  timeLeft: 'Time left',
  finishedPlace: (place: number, prize: string | null) => `You finished ${ordinal(place)}${prize === null ? '' : ` and won ${prize}`}.`,
  out: 'You are out of this tournament.',
  /** A player's card: knocked out or withdrawn. */
  outShort: 'Out',
  rulesAndPrizes: 'Rules and prizes',
  rules: 'Rules',
  terms: { game: 'Game', timeControl: 'Time control', format: 'Format', entry: 'Entry', starts: 'Starts' },
  seedingRule: 'Seeded by rating; byes go to the top seeds.',
  arenaRules: [
    'Paired again as soon as your game ends, with someone close in score.',
    '2 points a win, 1 a draw; after two wins in a row, wins count double.',
    'Pause at any time: you are not paired until you resume.',
  ],
  poolGrows: 'The pool grows with each entry and is fixed at the start; no fee.',
  poolPaid: 'No fee: the whole pool is paid.',
  winner: 'Winner',
  standingsColumns: { rank: '#', player: 'Player', points: 'Points', wonPlayed: 'Won/played', streak: 'Streak' },
  liveGames: 'Games being played',
  versus: (a: string, b: string) => `${a} vs ${b}`,
  watch: 'Watch',
  players: 'Players',
  noEntrants: 'No one has entered yet.',
} as const;

function ordinal(n: number): string {
  const lastTwo = n % 100;
  const suffix = lastTwo >= 11 && lastTwo <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
