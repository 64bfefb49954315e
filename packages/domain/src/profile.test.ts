import { describe, expect, it } from 'vitest';
import { PROFILE } from './messages.ts';
import { avatarPath, avatarPathOf, avatarUrl, checkAvatarBytes, checkAvatarFile, leaderboardQuerySchema } from './profile.ts';

const MB = 1024 * 1024;
const id = '0b6f1c9e-4a57-4d7e-9a0e-2f1f5d2c9b11';
const ascii = (text: string) => Uint8Array.from(text.padEnd(32, '.'), (c) => c.charCodeAt(0));

describe('avatar rules (SPEC §5)', () => {
  it('checks the declared type and size in order, with SPEC texts', () => {
    expect(checkAvatarFile({ type: 'text/plain', size: 1 })).toBe('File must be an image');
    expect(checkAvatarFile({ type: 'image/bmp', size: 1 })).toBe('Unsupported image format: bmp');
    expect(checkAvatarFile({ type: 'IMAGE/PNG', size: 5 * MB })).toBeNull();
    expect(checkAvatarFile({ type: 'image/png', size: 5 * MB + 1 })).toBe('File size must be less than 5MB');
  });

  it('lets the bytes decide the stored type', () => {
    expect(checkAvatarBytes('image/jpeg', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]))).toEqual({ ok: true, type: 'image/png' });
    expect(checkAvatarBytes('image/png', ascii('GIF89a'))).toEqual({ ok: true, type: 'image/gif' });
    expect(checkAvatarBytes('image/png', ascii('<svg/>'))).toEqual({ ok: false, message: PROFILE.fileNotImage });
  });

  it('names files {userId}/{userId}-{timestamp}.{ext} and recognises only those addresses', () => {
    const path = avatarPath(id, 1700000000123, 'image/jpeg');
    expect(path).toBe(`${id}/${id}-1700000000123.jpg`);
    expect(avatarPathOf(avatarUrl(path))).toBe(path);
    expect(avatarPathOf(`/api/avatars/${id}/${id.replace('0b', '0c')}-1.png`)).toBeNull();
    expect(avatarPathOf(`/api/avatars/${id}/${id}-1.svg`)).toBeNull();
    expect(avatarPathOf('https://example.com/a.png')).toBeNull();
    expect(avatarPathOf(null)).toBeNull();
  });

  it('reads leaderboard queries with defaults and bounds', () => {
    expect(leaderboardQuerySchema.parse({})).toEqual({ game: 'global', page: 1, pageSize: 20 });
    expect(leaderboardQuerySchema.parse({ game: 'chess', page: '3', pageSize: '50' })).toEqual({ game: 'chess', page: 3, pageSize: 50 });
    expect(leaderboardQuerySchema.safeParse({ pageSize: '51' }).success).toBe(false);
    expect(leaderboardQuerySchema.safeParse({ game: 'poker' }).success).toBe(false);
  });
});
