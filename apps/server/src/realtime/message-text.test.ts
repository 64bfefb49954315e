// A frame reads the same whichever form ws hands it in (a non-Buffer one once printed "[object ArrayBuffer]").
import { describe, expect, it } from 'vitest';
import { messageText } from './message-text.ts';

describe('messageText', () => {
  const text = '{"t":"ping","d":"é"}';
  const bytes = Buffer.from(text);

  it('reads a Buffer, an ArrayBuffer and a list of fragments alike', () => {
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
    const fragments = [bytes.subarray(0, 5), bytes.subarray(5, 18), bytes.subarray(18)];
    expect(messageText(bytes)).toBe(text);
    expect(messageText(arrayBuffer)).toBe(text);
    expect(messageText(fragments)).toBe(text);
  });
});
