// Pure parts of the gate page's falling-text background: sizing and the glyph rain's motion.
// The canvas component owns the clock and the drawing; these take randomness as an argument.

// ASCII and a few symbols every system font has, so no glyph ever falls back to a blank box.
export const FALLING_GLYPHS = '0123456789VERSUSWINXPKOQZ$#%&*+=<>/\\|{}[]';

export const RAIN = {
  fontSizePx: 16,
  /** The rain steps at about 15 frames a second: the classic look, and cheap. */
  stepMs: 66,
  /** Past the bottom, a drop restarts with this chance per step, so columns fall out of phase. */
  restartChance: 0.025,
  /** Sharper than 2x costs pixels nobody sees behind a low-opacity layer. */
  maxPixelRatio: 2,
} as const;

export interface CanvasSize {
  /** Backing-store size in device pixels. */
  width: number;
  height: number;
  /** The context scale that lets drawing code work in CSS pixels. */
  scale: number;
}

export function canvasSize(cssWidth: number, cssHeight: number, devicePixelRatio: number): CanvasSize {
  const ratio = Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? devicePixelRatio : 1;
  const scale = Math.min(ratio, RAIN.maxPixelRatio);
  const w = Number.isFinite(cssWidth) ? Math.max(0, cssWidth) : 0;
  const h = Number.isFinite(cssHeight) ? Math.max(0, cssHeight) : 0;
  return { width: Math.round(w * scale), height: Math.round(h * scale), scale };
}

export function columnCount(cssWidth: number, fontSizePx: number): number {
  if (!(fontSizePx > 0) || !(cssWidth > 0)) return 0;
  return Math.ceil(cssWidth / fontSizePx);
}

/** Row positions of each column's head; negative rows start above the top, staggering the start. */
export function createDrops(columns: number, rows: number, random: () => number): number[] {
  return Array.from({ length: Math.max(0, columns) }, () => -Math.floor(random() * Math.max(1, rows)));
}

/** Every head falls one row; a head past the bottom restarts at the top by chance. */
export function stepDrops(drops: readonly number[], rows: number, random: () => number): number[] {
  return drops.map((row) => (row > rows && random() < RAIN.restartChance ? 0 : row + 1));
}

export function pickGlyph(random: () => number): string {
  const glyphs = Array.from(FALLING_GLYPHS);
  const i = Math.min(glyphs.length - 1, Math.max(0, Math.floor(random() * glyphs.length)));
  return glyphs[i] ?? 'V';
}
