import { describe, expect, it } from 'vitest';
import { joinPath, joinTargetFromProtocol, joinTargetFromShare, joinTargetInText } from './join-target.ts';

describe('joinTargetInText', () => {
  it('reads a room link, a challenge link and a bare code', () => {
    expect(joinTargetInText('Play me! https://versus.app/join-room/abc234')).toEqual({ kind: 'room', code: 'ABC234' });
    expect(joinTargetInText('https://versus.app/join-challenge/K7M2PQ?x=1')).toEqual({ kind: 'challenge', code: 'K7M2PQ' });
    expect(joinTargetInText('my code is k7m2pq, hurry')).toEqual({ kind: 'room', code: 'K7M2PQ' });
  });

  it('reads encoded links', () => {
    expect(joinTargetInText('https%3A%2F%2Fversus.app%2Fjoin-room%2FABC234')).toEqual({ kind: 'room', code: 'ABC234' });
  });

  it('keeps text with a stray percent sign', () => {
    expect(joinTargetInText('100% sure: XYZ789')).toEqual({ kind: 'room', code: 'XYZ789' });
  });

  it('finds nothing in plain words, too-long codes or empty input', () => {
    expect(joinTargetInText('nothing here at all')).toBeNull();
    expect(joinTargetInText('https://versus.app/join-room/ABC2345')).toBeNull();
    expect(joinTargetInText('')).toBeNull();
    expect(joinTargetInText(null)).toBeNull();
  });
});

describe('joinTargetFromShare', () => {
  it('prefers the url, then the text, then the title', () => {
    expect(joinTargetFromShare({ title: 'Code AAA222', text: 'Join BBB333', url: 'https://v.app/join-room/CCC444' })).toEqual({
      kind: 'room',
      code: 'CCC444',
    });
    expect(joinTargetFromShare({ title: 'Code AAA222', text: 'Join BBB333', url: null })).toEqual({ kind: 'room', code: 'BBB333' });
    expect(joinTargetFromShare({ title: 'Code AAA222' })).toEqual({ kind: 'room', code: 'AAA222' });
  });

  it('is null when nothing carries a code', () => {
    expect(joinTargetFromShare({ title: 'hello', text: 'see you later', url: 'https://example.com/' })).toBeNull();
    expect(joinTargetFromShare({})).toBeNull();
  });
});

describe('joinTargetFromProtocol', () => {
  it('reads web+versus links, with the + decoded to a space or not', () => {
    expect(joinTargetFromProtocol('web+versus://join/ABC123')).toEqual({ kind: 'room', code: 'ABC123' });
    expect(joinTargetFromProtocol('web versus://join/abc123')).toEqual({ kind: 'room', code: 'ABC123' });
    expect(joinTargetFromProtocol('web+versus://join-room/ABC123')).toEqual({ kind: 'room', code: 'ABC123' });
    expect(joinTargetFromProtocol('web+versus://challenge/ABC123')).toEqual({ kind: 'challenge', code: 'ABC123' });
  });

  it('refuses other schemes and garbage', () => {
    expect(joinTargetFromProtocol('https://evil.example/join/ABC123')).toBeNull();
    expect(joinTargetFromProtocol('web+versus://join/AB')).toBeNull();
    expect(joinTargetFromProtocol('')).toBeNull();
    expect(joinTargetFromProtocol(null)).toBeNull();
  });
});

describe('joinPath', () => {
  it('points at the join screen of the kind', () => {
    expect(joinPath({ kind: 'room', code: 'ABC123' })).toBe('/join-room/ABC123');
    expect(joinPath({ kind: 'challenge', code: 'ABC123' })).toBe('/join-challenge/ABC123');
  });
});
