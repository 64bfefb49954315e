// SHA-256 for the provably-fair dice, from @noble/hashes (audited): synchronous and pure, so
// commitments are checked the same way on the server and in the browser (crypto.subtle is async).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** UTF-8 bytes of a string (a lone surrogate becomes U+FFFD, as in TextEncoder). */
export const utf8: (text: string) => Uint8Array = utf8ToBytes;

export function sha256(message: Uint8Array | string): Uint8Array {
  return nobleSha256(typeof message === 'string' ? utf8ToBytes(message) : message);
}

export function sha256Hex(message: Uint8Array | string): string {
  return bytesToHex(sha256(message));
}
