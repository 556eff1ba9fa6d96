import type { NoiseReading } from '../../worker/api-types';

const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;

/**
 * How stochastic the target looks so far (issue #19): the share of repeated answers that changed,
 * a cautious bound of it, and what the verdicts do about it. A sampled or reasoning model is noisy;
 * the run measures it from the items it asks twice rather than assuming either way.
 */
export function NoiseNote({ noise }: { noise?: NoiseReading }) {
  if (!noise || noise.samples === 0) return null;
  const deterministic = noise.margin <= 1;
  const p = noise.posterior;
  const asked = p?.doubtfulSide ? 'the skill whose answers are in doubt' : 'both skills';
  return (
    <p className="muted small" aria-label="Target noise">
      <strong>Target noise:</strong> {pct(noise.flipRate)} of {noise.samples} repeated answers changed (at most{' '}
      {pct(noise.flipUpper)} at 90% confidence).{' '}
      {deterministic
        ? 'The target looks deterministic: one answer settles an item (items are still spot-checked).'
        : p
          ? `Verdicts take this noise out item by item and ask again (${asked}) where a change is plausible, until the candidate is better with ${pct(p.confidence)} probability or cannot be.`
          : `Verdicts ask again where the two skills disagree, until one answer leads by ${noise.margin} votes.`}
    </p>
  );
}
