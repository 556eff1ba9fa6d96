import type { TestReport } from '../../worker/api-types';
import { pct } from './run-format';

/** pass^k written as the papers write it: the k raised. */
export function PassK({ k }: { k: number | string }) {
  return (
    <>
      pass<sup>{k}</sup>
    </>
  );
}

/**
 * Whether a skill works every time, not on average (issue #43): its pass^k (all k tries of a test
 * item pass) beside pass^1 over the same tries, and how many items flipped between tries.
 */
export function PassKLine({ test, label }: { test: TestReport; label: string }) {
  const p = test.passK;
  if (!p) return null;
  return (
    <li>
      {label}: <PassK k={p.k} /> <strong>{pct(p.passAtK)}</strong> against <PassK k={1} /> {pct(p.passAt1)}
      {' — '}
      {pct(p.flipRate)} of {p.items} test items passed on some tries and failed on others
      {p.short ? ` (${p.short} left out: errors left them fewer than ${p.k} tries)` : ''}
    </li>
  );
}
