// Notification sounds by type and urgency, generated with Web Audio (no sound files): a short
// sequence of tones per kind. The choice of tones is pure and tested; playing them is not.

export type SoundKind = 'urgent' | 'match' | 'challenge' | 'money' | 'social' | 'system';

export interface Tone {
  /** Hz. */
  frequency: number;
  /** Start offset from the first tone, ms. */
  atMs: number;
  durationMs: number;
  wave: OscillatorType;
  /** 0..1 peak gain. */
  gain: number;
}

const seq = (wave: OscillatorType, gain: number, notes: readonly [number, number][], gapMs = 20): Tone[] => {
  let at = 0;
  return notes.map(([frequency, durationMs]) => {
    const tone = { frequency, atMs: at, durationMs, wave, gain };
    at += durationMs + gapMs;
    return tone;
  });
};

/** The tones of each kind: urgent is louder, higher and repeated; social is one soft note. */
export const SOUNDS: Record<SoundKind, readonly Tone[]> = {
  urgent: seq('square', 0.18, [
    [880, 120],
    [660, 120],
    [880, 120],
    [660, 160],
  ]),
  match: seq('triangle', 0.22, [
    [523.25, 110],
    [659.25, 110],
    [783.99, 180],
  ]),
  challenge: seq('triangle', 0.2, [
    [587.33, 120],
    [880, 200],
  ]),
  money: seq('sine', 0.22, [
    [1046.5, 90],
    [1318.51, 90],
    [1567.98, 220],
  ]),
  social: seq('sine', 0.15, [[698.46, 180]]),
  system: seq('sine', 0.15, [
    [440, 140],
    [440, 140],
  ]),
};

/** Which sound a notification makes: urgent ones (high or critical priority) override the category's. */
export function soundKindFor(category: string, urgent: boolean): SoundKind {
  if (urgent) return 'urgent';
  switch (category) {
    case 'match':
      return 'match';
    case 'challenge':
      return 'challenge';
    case 'financial':
      return 'money';
    case 'social':
      return 'social';
    default:
      return 'system';
  }
}

let context: AudioContext | null = null;

/** Plays a kind's tones; silently does nothing where Web Audio is missing or still locked by autoplay rules. */
export function playSound(kind: SoundKind): void {
  const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return;
  context ??= new Ctor();
  const ctx = context;
  // Autoplay policy: the context stays suspended until a user gesture; resume() then succeeds.
  if (ctx.state === 'suspended') void ctx.resume().catch((error: unknown) => console.debug('Notification sound locked', error));
  const start = ctx.currentTime + 0.01;
  for (const tone of SOUNDS[kind]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = tone.wave;
    osc.frequency.value = tone.frequency;
    const t0 = start + tone.atMs / 1000;
    const t1 = t0 + tone.durationMs / 1000;
    // A short attack and release, so tones do not click.
    gain.gain.setValueAtTime(0, t0);
    gain.gain.linearRampToValueAtTime(tone.gain, t0 + 0.01);
    gain.gain.setValueAtTime(tone.gain, Math.max(t0 + 0.01, t1 - 0.03));
    gain.gain.linearRampToValueAtTime(0, t1);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0);
    osc.stop(t1 + 0.01);
  }
}
