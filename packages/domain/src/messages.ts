// Every user-facing text, read by server, web and tests alike; one module per area, so a page ships
// only the texts it shows.
export * from './messages/shell.ts';
export * from './messages/challenges.ts';
export * from './messages/ledger.ts';
export * from './messages/arena.ts';
export * from './messages/rooms.ts';
export * from './messages/results.ts';
export * from './messages/notifications.ts';
export * from './messages/profile.ts';
export * from './messages/tournaments.ts';
