/**
 * Stability as a gate criterion (issue #43, `gateStability`): an agent's skill is judged by whether it
 * works every time, so a candidate that scores better on average yet passes its items less reliably
 * is refused. On the validation items both skills were scored on, pass^k (core/verdict/pass-k.ts) of
 * the candidate must not fall below the reference's. The verdict's own repeats count first; an item a
 * side passed at least once but holds fewer than k answers for is asked again up to k (its doubt is
 * whether the pass repeats, even on a target the run found steady: a candidate's own rule may be the
 * flaky part). An item a side never passed is 0 whatever more tries say of it.
 */
import { isPass } from '../core/verdict/credit';
import { itemPassAtK } from '../core/verdict/pass-k';
import type { ItemPair } from '../core/verdict/paired-verdict';
import type { EngineContext } from './context';
import { rolloutPhase } from './rollout';
import type { StabilityRecord } from './artifacts';

export interface StabilityInput {
  phase: string;
  skills: { ref: string; cand: string };
  pairs: readonly ItemPair[];
  k: number;
}

/** pass^k of both sides on the verdict's items, with the tries doubtful items still need. */
export async function measureStability(ctx: EngineContext, a: StabilityInput): Promise<StabilityRecord> {
  const both = a.pairs.filter((p) => p.ref.length && p.cand.length);
  const tries = { ref: new Map<string, boolean[]>(), cand: new Map<string, boolean[]>() };
  for (const p of both) {
    tries.ref.set(
      p.itemId,
      p.ref.map((x) => isPass(x.hard)),
    );
    tries.cand.set(
      p.itemId,
      p.cand.map((x) => isPass(x.hard)),
    );
  }
  let calls = 0;
  for (const side of ['ref', 'cand'] as const) {
    // Repeat j of every item that needs it, one phase per repeat (the k-th answer of an item is one cache key:
    // the current skill's repeats from an earlier step are not asked again).
    for (let j = 1; j < a.k; j++) {
      const ids = [...tries[side]].filter(([, t]) => t.length === j && t.some(Boolean)).map(([id]) => id);
      if (!ids.length) continue;
      const r = await rolloutPhase(ctx, {
        phase: `${a.phase}/stable-${side}/r${j}`,
        skill: a.skills[side],
        itemIds: ids,
        repeat: j,
      });
      calls += r.calls;
      // An errored try is no try: that item keeps the answers it has.
      for (const row of r.rows) if (row.status === 'ok') tries[side].get(row.itemId)!.push(isPass(row.hard));
    }
  }
  const passK = (side: 'ref' | 'cand') => {
    const values = [...tries[side].values()].map((t) => itemValue(t, a.k));
    return values.length ? values.reduce((x, y) => x + y, 0) / values.length : 0;
  };
  const reference = passK('ref');
  const candidate = passK('cand');
  return { k: a.k, reference, candidate, items: both.length, calls, held: candidate >= reference - 1e-9 };
}

/**
 * One item's pass^k: never passed is 0 at any k; k tries or more, C(c,k)/C(n,k); fewer (its repeats
 * errored), its pass rate to the k-th power.
 */
function itemValue(t: readonly boolean[], k: number): number {
  const passes = t.filter(Boolean).length;
  if (!passes) return 0;
  return t.length >= k ? itemPassAtK({ n: t.length, passes }, k) : (passes / t.length) ** k;
}
