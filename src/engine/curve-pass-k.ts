/**
 * pass^k of a learning curve's point (issue #43, `curvePassK`): the skill validation just scored is
 * tried k − 1 more times on each item its score stands on (an ok first sample), one phase per
 * repeat — a repeat a verdict already asked is the rollout cache's, no call — and the point carries
 * pass^1, pass^k and the item flip rate of those k tries alike (core/verdict/pass-k.ts). Off, or
 * with no item scored: null.
 */
import { skillHash } from '../core/basics/hash';
import { testTries } from '../core/config/run-config';
import { isPass } from '../core/verdict/credit';
import { passKOfAsked, type PassK } from '../core/verdict/pass-k';
import type { EngineContext } from './context';
import { rolloutCacheKey, rolloutPhase } from './rollout';

/** k of a run's curve: the test's tries, at least two (as the stability criterion's). */
export const curveK = (ctx: EngineContext): number => Math.max(2, testTries(ctx.config, ctx.agent.active));

export interface CurvePointInput {
  /** The point's key ("baseline", "s0003", "e02"): its repeats go to `${key}/curve/r<j>`. */
  key: string;
  skill: string;
  /** The validation items, in the gate's order. */
  itemIds: readonly string[];
}

export async function curvePassK(ctx: EngineContext, a: CurvePointInput): Promise<PassK | null> {
  if (!ctx.config.curvePassK) return null;
  const k = curveK(ctx);
  const hash = await skillHash(a.skill);
  const asked = new Map<string, (boolean | null)[]>();
  for (const id of a.itemIds) {
    const first = await ctx.store.findRollout(ctx.runId, rolloutCacheKey(hash, id, ctx.targetKey));
    if (first) asked.set(id, [isPass(first.hard)]);
  }
  const ids = [...asked.keys()];
  if (!ids.length) return null;
  for (let j = 1; j < k; j++) {
    const r = await rolloutPhase(ctx, { phase: `${a.key}/curve/r${j}`, skill: a.skill, itemIds: ids, repeat: j });
    // An errored try was asked and is no try: null keeps its place.
    for (const row of r.rows) asked.get(row.itemId)!.push(row.status === 'ok' ? isPass(row.hard) : null);
  }
  return passKOfAsked([...asked.values()], k);
}
