/** Whether this location shows a game board, where the corner overlays would cover its squares. */
export function isMatchScreen(location: { pathname: string; search: string }): boolean {
  return (
    (location.pathname === '/live-arena' && new URLSearchParams(location.search).has('match')) || location.pathname.startsWith('/spectate/')
  );
}
