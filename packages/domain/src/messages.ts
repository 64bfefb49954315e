// Every user-facing text SPEC.md names, in one catalogue read by the server, the web app and
// the tests alike. Functions build the texts that carry values. One module per area, so a page
// ships only the texts of the areas it shows.
export * from './messages/shell.ts';
export * from './messages/challenges.ts';
export * from './messages/ledger.ts';
export * from './messages/arena.ts';
export * from './messages/rooms.ts';
export * from './messages/results.ts';
export * from './messages/notifications.ts';
export * from './messages/profile.ts';
export * from './messages/tournaments.ts';
