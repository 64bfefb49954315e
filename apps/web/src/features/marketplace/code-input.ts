import { CHALLENGE_RULES } from '@versus/domain';

/** What the code box shows as the player types: uppercased, no spaces, at most 6 characters. */
export function codeInputValue(typed: string): string {
  return typed.replace(/\s+/g, '').toUpperCase().slice(0, CHALLENGE_RULES.codeLength);
}
