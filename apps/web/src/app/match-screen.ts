/**
 * Whether this location shows a game board (a player's match in /live-arena, or /spectate/): the
 * corner overlays (the beta chat button, the Virtual Mode pill) would cover its squares there.
 */
export function isMatchScreen(location: { pathname: string; search: string }): boolean {
  return (
    (location.pathname === '/live-arena' && new URLSearchParams(location.search).has('match')) || location.pathname.startsWith('/spectate/')
  );
}
