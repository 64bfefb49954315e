// Glicko-2 (Glickman, "Example of the Glicko-2 system"), as lichess rates games; one rating period
// is one match, each player rated against the other's rating from before it.

export interface Glicko2Rating {
  /** Glicko scale: 1500 for a new player. */
  rating: number;
  /** Rating deviation: 350 for a new player, shrinking as results come in. */
  rd: number;
  /** How erratic the player's results are (σ). */
  volatility: number;
}

export const GLICKO2 = {
  initial: { rating: 1500, rd: 350, volatility: 0.06 } satisfies Glicko2Rating,
  /** System constant τ: how fast volatility may change (Glickman suggests 0.3–1.2; lichess 0.75). */
  tau: 0.75,
  /** Glicko ↔ Glicko-2 scale factor. */
  scale: 173.7178,
  /** Convergence tolerance of the volatility iteration. */
  epsilon: 0.000001,
  /** Deviation never grows past a new player's, nor falls below this (lichess keeps RD ≥ 45). */
  maxRd: 350,
  minRd: 45,
} as const;

/** 1 win, 0.5 draw, 0 loss. */
export type Score = 0 | 0.5 | 1;

export interface RatedResult {
  opponent: Glicko2Rating;
  score: Score;
}

export interface RateOptions {
  tau?: number;
  /** Clamp the new RD to [minRd, maxRd] (default true; the paper's example has no clamp). */
  clamp?: boolean;
}

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/** Steps 1–8 of the paper; with no results only the deviation grows. */
export function rate(player: Glicko2Rating, results: readonly RatedResult[], options: RateOptions = {}): Glicko2Rating {
  const tau = options.tau ?? GLICKO2.tau;
  const clamp = options.clamp ?? true;
  const { scale, epsilon } = GLICKO2;
  const mu = (player.rating - 1500) / scale;
  const phi = player.rd / scale;
  const sigma = player.volatility;
  const finish = (rating: number, rd: number, volatility: number): Glicko2Rating => ({
    rating,
    rd: clamp ? Math.min(GLICKO2.maxRd, Math.max(GLICKO2.minRd, rd)) : rd,
    volatility,
  });

  if (results.length === 0) {
    return finish(player.rating, Math.sqrt(phi * phi + sigma * sigma) * scale, sigma);
  }

  // Step 3: the estimated variance v; step 4: the estimated improvement Δ.
  let vInverse = 0;
  let sum = 0;
  for (const { opponent, score } of results) {
    const muJ = (opponent.rating - 1500) / scale;
    const phiJ = opponent.rd / scale;
    const e = expected(mu, muJ, phiJ);
    const gj = g(phiJ);
    vInverse += gj * gj * e * (1 - e);
    sum += gj * (score - e);
  }
  const v = 1 / vInverse;
  const delta = v * sum;

  // Step 5: the new volatility σ'.
  const a = Math.log(sigma * sigma);
  const phi2 = phi * phi;
  const f = (x: number) => {
    const ex = Math.exp(x);
    const d = phi2 + v + ex;
    return (ex * (delta * delta - phi2 - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi2 + v) {
    B = Math.log(delta * delta - phi2 - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; i < 100 && Math.abs(B - A) > epsilon; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const newSigma = Math.exp(A / 2);

  // Steps 6–8: the new deviation and rating, back on the Glicko scale.
  const phiStar = Math.sqrt(phi2 + newSigma * newSigma);
  const newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const newMu = mu + newPhi * newPhi * sum;
  return finish(newMu * scale + 1500, newPhi * scale, newSigma);
}

/** Both players after one match between them: `scoreA` is A's score (1, 0.5 or 0). */
export function rateMatch(a: Glicko2Rating, b: Glicko2Rating, scoreA: Score, options: RateOptions = {}): [Glicko2Rating, Glicko2Rating] {
  const scoreB = (1 - scoreA) as Score;
  return [rate(a, [{ opponent: b, score: scoreA }], options), rate(b, [{ opponent: a, score: scoreB }], options)];
}

/** A rating as players see it: a whole number, with `?` while the deviation is high (lichess: RD > 110). */
export function displayRating(r: Glicko2Rating): { value: number; provisional: boolean } {
  return { value: Math.round(r.rating), provisional: r.rd > 110 };
}
