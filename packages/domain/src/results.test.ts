import { describe, expect, it } from 'vitest';
import { RESULTS } from './messages.ts';
import { checkEvidenceBytes, checkEvidenceFile, resolveRequestSchema, reportRequestSchema, sniffImageType } from './results.ts';

const MB = 1024 * 1024;
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]);
const ascii = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

describe('evidence files (SPEC §5 Avatar upload)', () => {
  it('accepts jpeg, png, gif, webp and avif up to 5 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']) {
      expect(checkEvidenceFile({ type, size: 5 * MB })).toBeNull();
    }
  });
  it("refuses with SPEC's messages, the type first", () => {
    expect(checkEvidenceFile({ type: 'application/pdf', size: 10 })).toBe('File must be an image');
    expect(checkEvidenceFile({ type: 'image/bmp', size: 10 })).toBe('Unsupported image format: bmp');
    expect(checkEvidenceFile({ type: 'image/svg+xml', size: 10 * MB })).toBe('Unsupported image format: svg+xml');
    expect(checkEvidenceFile({ type: 'image/png', size: 5 * MB + 1 })).toBe('File size must be less than 5MB');
    expect(RESULTS.fileTooLarge).toBe('File size must be less than 5MB');
  });
  it('reads the type from the first bytes and refuses bytes that are not the image they claim', () => {
    expect(sniffImageType(png)).toBe('image/png');
    expect(sniffImageType(jpeg)).toBe('image/jpeg');
    expect(sniffImageType(ascii('GIF89a......'))).toBe('image/gif');
    expect(sniffImageType(ascii('RIFF....WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(ascii('....ftypavif....'))).toBe('image/avif');
    expect(sniffImageType(ascii('<svg></svg>'))).toBeNull();
    expect(checkEvidenceBytes('image/png', png)).toBeNull();
    expect(checkEvidenceBytes('image/png', jpeg)).toBe(RESULTS.fileNotImage);
    expect(checkEvidenceBytes('image/png', ascii('hello'))).toBe(RESULTS.fileNotImage);
  });
});

describe('request schemas', () => {
  it('a report is win or loss', () => {
    expect(reportRequestSchema.safeParse({ outcome: 'win' }).success).toBe(true);
    expect(reportRequestSchema.safeParse({ outcome: 'draw' }).success).toBe(false);
  });
  it('a resolution needs an outcome and a non-empty reason', () => {
    expect(resolveRequestSchema.parse({ outcome: 'void', reason: '  no proof  ' })).toEqual({ outcome: 'void', reason: 'no proof' });
    const blank = resolveRequestSchema.safeParse({ outcome: 'draw', reason: '   ' });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0]?.message).toBe(RESULTS.reasonRequired);
    expect(resolveRequestSchema.safeParse({ outcome: 'player3', reason: 'x' }).success).toBe(false);
  });
});
