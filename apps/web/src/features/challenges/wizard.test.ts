import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHALLENGE } from '@versus/domain';
import { checkNewChallenge, createChallengeRequestSchema } from '@versus/domain/challenges';
import { GAME_IDS, gameDurationPresets, scheduleSlots, GAMES } from '@versus/domain/catalogue';
import {
  EMPTY_DRAFT,
  chooseGame,
  draftFromPrefill,
  furthestReachable,
  gameFromParam,
  isStepValid,
  parsePrefill,
  parseStakeInput,
  stakeFromParam,
  stepProblem,
  toCreateRequest,
  type WizardDraft,
} from './wizard.ts';

const now = new Date('2025-03-01T18:07:00.000Z');
const slot = scheduleSlots(now)[0]!.toISOString();

function complete(overrides: Partial<WizardDraft> = {}): WizardDraft {
  return { ...chooseGame(EMPTY_DRAFT, 'chess'), stake: 25, duration: 30, scheduledTime: slot, ...overrides };
}

describe('wizard steps', () => {
  it('step 1 needs a game', () => {
    expect(stepProblem(0, EMPTY_DRAFT, now)).toBe(CHALLENGE.chooseGame);
    expect(isStepValid(0, chooseGame(EMPTY_DRAFT, 'ludo'), now)).toBe(true);
  });

  it('step 2 needs a stake of 1–1000 and a duration preset', () => {
    const chess = chooseGame(EMPTY_DRAFT, 'chess');
    expect(stepProblem(1, chess, now)).toBe(CHALLENGE.invalidStake);
    expect(stepProblem(1, { ...chess, stake: 0 }, now)).toBe(CHALLENGE.invalidStake);
    expect(stepProblem(1, { ...chess, stake: 1001 }, now)).toBe(CHALLENGE.invalidStake);
    expect(stepProblem(1, { ...chess, stake: 2.5 }, now)).toBe(CHALLENGE.invalidStake);
    expect(stepProblem(1, { ...chess, stake: 1 }, now)).toBe(CHALLENGE.chooseDuration);
    expect(stepProblem(1, { ...chess, stake: 1, duration: 7 }, now)).toBe(CHALLENGE.chooseDuration);
    expect(stepProblem(1, { ...chess, stake: 1000, duration: gameDurationPresets('chess')[0]! }, now)).toBeNull();
    // A web game needs neither platform nor gamertag.
    expect(isStepValid(1, { ...chess, stake: 10, duration: 10, gamertag: '' }, now)).toBe(true);
  });

  it('step 2 needs a platform and a gamertag for an external game', () => {
    const fortnite = { ...chooseGame(EMPTY_DRAFT, 'fortnite'), stake: 50, duration: gameDurationPresets('fortnite')[0]! };
    expect(stepProblem(1, fortnite, now)).toBe(CHALLENGE.platformRequired);
    expect(stepProblem(1, { ...fortnite, platform: 'xbox' }, now)).toBe(CHALLENGE.gamertagRequired);
    expect(stepProblem(1, { ...fortnite, platform: 'xbox', gamertag: '   ' }, now)).toBe(CHALLENGE.gamertagRequired);
    expect(stepProblem(1, { ...fortnite, platform: 'xbox', gamertag: 'x'.repeat(65) }, now)).toBe(CHALLENGE.gamertagTooLong(64));
    expect(stepProblem(1, { ...fortnite, platform: 'xbox', gamertag: 'Ninja' }, now)).toBeNull();
  });

  it('step 3 needs a future time and a message of at most 200 characters', () => {
    const draft = complete({ scheduledTime: null });
    expect(stepProblem(2, draft, now)).toBe(CHALLENGE.chooseTime);
    expect(stepProblem(2, { ...draft, scheduledTime: '2025-03-01T18:00:00.000Z' }, now)).toBe(CHALLENGE.scheduleInPast);
    expect(stepProblem(2, { ...draft, scheduledTime: slot, message: 'x'.repeat(201) }, now)).toBe(CHALLENGE.messageTooLong(200));
    expect(stepProblem(2, { ...draft, scheduledTime: slot, message: 'x'.repeat(200) }, now)).toBeNull();
  });

  it('step 4 is valid only when every step before is', () => {
    expect(stepProblem(3, complete(), now)).toBeNull();
    expect(stepProblem(3, complete({ stake: null }), now)).toBe(CHALLENGE.invalidStake);
    expect(furthestReachable(EMPTY_DRAFT, now)).toBe(0);
    expect(furthestReachable(chooseGame(EMPTY_DRAFT, 'chess'), now)).toBe(1);
    expect(furthestReachable(complete({ scheduledTime: null }), now)).toBe(2);
    expect(furthestReachable(complete(), now)).toBe(3);
  });

  it('changing the game keeps only what still fits it', () => {
    const fortnite = { ...chooseGame(EMPTY_DRAFT, 'fortnite'), platform: 'mobile' as const, duration: 20 };
    const valorant = chooseGame(fortnite, 'valorant'); // pc only, 30–60 minutes
    expect(valorant.platform).toBeNull();
    expect(valorant.duration).toBeNull();
    const cod = chooseGame(fortnite, 'call-of-duty'); // mobile and 15–45 minutes
    expect(cod.platform).toBe('mobile');
    expect(chooseGame(fortnite, 'chess').platform).toBeNull();
  });

  it('reads the custom stake field as whole numbers only', () => {
    expect(parseStakeInput('25')).toBe(25);
    expect(parseStakeInput(' 1000 ')).toBe(1000);
    expect(parseStakeInput('')).toBeNull();
    expect(parseStakeInput('2.5')).toBeNull();
    expect(parseStakeInput('-3')).toBeNull();
    expect(parseStakeInput('1e3')).toBeNull();
  });

  it('every complete draft is a request the server accepts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GAME_IDS),
        fc.integer({ min: 1, max: 1000 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 23 }),
        fc.string({ maxLength: 200 }),
        fc.boolean(),
        (game, stake, durationPick, platformPick, slotPick, message, isPrivate) => {
          const presets = gameDurationPresets(game);
          const platforms = GAMES[game].platforms;
          const draft: WizardDraft = {
            ...chooseGame(EMPTY_DRAFT, game),
            stake,
            duration: presets[durationPick % presets.length]!,
            platform: GAMES[game].kind === 'web' ? null : platforms[platformPick % platforms.length]!,
            gamertag: 'Tag#1',
            scheduledTime: scheduleSlots(now)[slotPick]!.toISOString(),
            message,
            isPrivate,
          };
          expect(stepProblem(3, draft, now)).toBeNull();
          const input = createChallengeRequestSchema.parse(toCreateRequest(draft));
          expect(checkNewChallenge(input, now)).toBeNull();
        },
      ),
    );
  });
});

describe('wizard prefill', () => {
  it('reads the game by id or name and the amount as a whole stake', () => {
    expect(gameFromParam('chess')).toBe('chess');
    expect(gameFromParam('FIFA 24')).toBe('fifa-24');
    expect(gameFromParam('Tic_Tac_Toe')).toBe('tic-tac-toe');
    expect(gameFromParam('snake')).toBeNull();
    expect(gameFromParam(null)).toBeNull();
    expect(stakeFromParam('25')).toBe(25);
    expect(stakeFromParam('25.00')).toBe(25);
    expect(stakeFromParam('25.5')).toBeNull();
    expect(stakeFromParam('0')).toBeNull();
    expect(stakeFromParam('1001')).toBeNull();
    expect(stakeFromParam('abc')).toBeNull();
  });

  it('opens Set Stakes with the game and amount chosen', () => {
    const prefill = parsePrefill(new URLSearchParams('game=valorant&amount=100&platform=PC'));
    expect(prefill).toEqual({ game: 'valorant', stake: 100, platform: 'pc', opponentId: null });
    const { draft, step } = draftFromPrefill(prefill, { virtual: false });
    expect(step).toBe(1);
    expect(draft).toMatchObject({ game: 'valorant', stake: 100, platform: 'pc', isPrivate: false });
    expect(parsePrefill(new URLSearchParams('game=chess&platform=pc')).platform).toBeNull();
  });

  it('starts at Choose Game without a game, and a rematch or a virtual account is private', () => {
    expect(draftFromPrefill(parsePrefill(new URLSearchParams('amount=50')), { virtual: false })).toMatchObject({
      step: 0,
      draft: { game: null, stake: 50 },
    });
    const rematch = parsePrefill(new URLSearchParams('game=chess&opponent=C0000000-0000-4000-8000-000000000001'));
    expect(rematch.opponentId).toBe('c0000000-0000-4000-8000-000000000001');
    expect(draftFromPrefill(rematch, { virtual: false }).draft.isPrivate).toBe(true);
    expect(parsePrefill(new URLSearchParams('opponent=not-an-id')).opponentId).toBeNull();
    expect(draftFromPrefill(parsePrefill(new URLSearchParams()), { virtual: true }).draft.isPrivate).toBe(true);
  });
});
