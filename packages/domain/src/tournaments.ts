// Tournaments (issue 27), shared by the server and the web app: `@versus/domain/tournaments`.
// Knockout brackets and arenas over the browser games, their money rules and prize splits.
export * from './tournaments/schemas.ts';
export * from './tournaments/lifecycle.ts';
export * from './tournaments/prizes.ts';
export * from './tournaments/bracket.ts';
export * from './tournaments/knockout-match.ts';
export * from './tournaments/arena-scoring.ts';
export * from './tournaments/arena-pairing.ts';
export * from './tournaments/views.ts';
