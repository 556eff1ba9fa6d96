/** Seeded train / val / test splits by ratio with largest-remainder rounding (§1.1). */
import { shuffled } from '../basics/random';

/**
 * Integer counts summing to n, proportional to the weights: floor each share, then give the
 * leftover items to the largest fractional parts (ties: larger weight first, then order).
 */
export function largestRemainder(n: number, weights: readonly number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0 || n <= 0) return weights.map(() => 0);
  const quotas = weights.map((w) => (n * w) / total);
  const counts = quotas.map((q) => Math.floor(q + 1e-9));
  let left = n - counts.reduce((a, b) => a + b, 0);
  const order = weights
    .map((w, i) => ({ i, frac: quotas[i] - counts[i], w }))
    .sort((a, b) => b.frac - a.frac || b.w - a.w || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    counts[i]++;
    left--;
  }
  return counts;
}

/** Parse "2:1:7" (or "0.2,0.1,0.7") into three non-negative weights. */
export function parseRatio(
  text: string,
): { ok: true; ratio: [number, number, number] } | { ok: false; message: string } {
  const parts = text
    .split(/[:,/\s]+/)
    .filter(Boolean)
    .map(Number);
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p) || p < 0)) {
    return { ok: false, message: `split ratio must be three non-negative numbers like 2:1:7, got "${text}"` };
  }
  if (parts[0] + parts[1] + parts[2] <= 0) return { ok: false, message: 'split ratio must not be all zeros' };
  return { ok: true, ratio: [parts[0], parts[1], parts[2]] };
}

/** Shuffle with the split seed, then cut into train, val and test by the ratio. */
export function splitByRatio<T>(
  items: readonly T[],
  ratio: readonly [number, number, number],
  seed: number,
): [T[], T[], T[]] {
  const [nTrain, nVal] = largestRemainder(items.length, ratio);
  const order = shuffled(items, seed);
  return [order.slice(0, nTrain), order.slice(nTrain, nTrain + nVal), order.slice(nTrain + nVal)];
}
