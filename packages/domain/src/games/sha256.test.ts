import { describe, expect, it } from 'vitest';
import { sha256Hex, utf8 } from './sha256.ts';

// Known answers: FIPS 180-4 examples plus lengths around the 55/56/64-byte padding boundaries.
const vectors: Array<[string, string]> = [
  ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ['a'.repeat(55), '9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318'],
  ['a'.repeat(56), 'b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a'],
  ['a'.repeat(64), 'ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb'],
  ['a'.repeat(119), '31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb'],
  ['héllo wörld 🎲', 'bd234629787ac3233cff7c703046f7e0491c9dcf9321ac6a18e48ad5c34d9e68'],
];

describe('sha256', () => {
  it.each(vectors)('hashes %j', (input, expected) => {
    expect(sha256Hex(input)).toBe(expected);
  });

  it('hashes one million "a" (many blocks)', () => {
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('encodes UTF-8 like the standard', () => {
    expect([...utf8('é🎲')]).toEqual([0xc3, 0xa9, 0xf0, 0x9f, 0x8e, 0xb2]);
    expect([...utf8('\ud800')]).toEqual([0xef, 0xbf, 0xbd]); // a lone surrogate: U+FFFD
  });
});
