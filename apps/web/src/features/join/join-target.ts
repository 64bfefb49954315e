// Where a shared text, a shared link or a protocol-handler URL points: a private room or a
// private challenge, by its 6-character code (SPEC §2 /share and /handle-protocol). Pure.
import { ROOM_LIMITS, roomCodeInText } from '@versus/domain/rooms';

export type JoinKind = 'room' | 'challenge';

export interface JoinTarget {
  kind: JoinKind;
  /** Six characters, upper case. */
  code: string;
}

const CODE = `[A-Za-z0-9]{${ROOM_LIMITS.codeLength}}`;
/** "…/join-challenge/ABC123", "web+versus://challenge/ABC123", "web versus://join-challenge/ABC123". */
const CHALLENGE_LINK = new RegExp(`(?:join-challenge|challenge)/(${CODE})(?![A-Za-z0-9])`, 'i');

/** The one target a piece of text names, or null. A challenge link wins over a room code. */
export function joinTargetInText(text: string | null | undefined): JoinTarget | null {
  if (!text) return null;
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch (error) {
    // A stray "%" is not an encoded link: read the text as it is.
    console.debug('Shared text is not URI-encoded', error);
  }
  const challenge = CHALLENGE_LINK.exec(decoded);
  if (challenge) return { kind: 'challenge', code: challenge[1]!.toUpperCase() };
  const room = roomCodeInText(decoded);
  return room ? { kind: 'room', code: room } : null;
}

/** The PWA share target's query (title, text, url): the link first, then the text, then the title. */
export function joinTargetFromShare(params: { title?: string | null; text?: string | null; url?: string | null }): JoinTarget | null {
  for (const part of [params.url, params.text, params.title]) {
    const target = joinTargetInText(part);
    if (target) return target;
  }
  return null;
}

/** /handle-protocol?url=web+versus://join/ABC123 (the browser passes the whole protocol URL). */
export function joinTargetFromProtocol(url: string | null | undefined): JoinTarget | null {
  if (!url) return null;
  // The scheme is ours only: any other link is not a Versus link, whatever it carries.
  if (!/^\s*web[+ ]versus:/i.test(url)) return null;
  return joinTargetInText(url);
}

/** The join screen's address for a target. */
export const joinPath = (target: JoinTarget): string =>
  `/${target.kind === 'room' ? 'join-room' : 'join-challenge'}/${encodeURIComponent(target.code)}`;
