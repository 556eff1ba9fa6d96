/**
 * Longitudinal comparison for the epoch boundary (algorithm doc §3.6 steps 2–6): the skill the
 * epoch started from and the one it ended with, rolled out on the same sampled train items,
 * paired by item and sorted into improved / regressed / persistent failures / stable successes.
 */
import { longitudinalOrder } from '../../core/config/batching';
import type { EngineContext } from '../context';
import { rolloutPhase } from '../rollout';
import { conversationBlock, shownFailReason } from '../trajectory';
import { trajectoryView } from '../trajectory';
import type { RolloutRow, RunDataset } from '../types';
import { isPass } from '../../core/verdict/credit';
import type { PairCategory } from '../artifacts';
import { epochKey } from '../keys';

export interface ComparisonPair {
  id: string;
  task: string;
  category: PairCategory;
  prev: RolloutRow;
  curr: RolloutRow;
}

function categorise(prev: RolloutRow, curr: RolloutRow): PairCategory {
  const p = isPass(prev.hard);
  const c = isPass(curr.hard);
  return p && c ? 'stable_success' : !p && c ? 'improved' : p && !c ? 'regressed' : 'persistent_fail';
}

/** Roll both skills out on the sample (in parallel) and pair the rows by item. */
export async function comparePrevCurr(
  ctx: EngineContext,
  data: RunDataset,
  epoch: number,
  prevSkill: string,
  currSkill: string,
): Promise<ComparisonPair[]> {
  const tag = epochKey(epoch);
  const order = longitudinalOrder(data.splits.train, ctx.config.seed, epoch);
  const n = Math.min(ctx.config.slowUpdateSamples, order.length);
  const policy = ctx.config.pairPolicy;
  const roll = async (ids: string[], suffix: string) => {
    const [prev, curr] = await Promise.all([
      rolloutPhase(ctx, { phase: `${tag}/prev${suffix}`, skill: prevSkill, itemIds: ids }),
      rolloutPhase(ctx, { phase: `${tag}/curr${suffix}`, skill: currSkill, itemIds: ids }),
    ]);
    const currById = new Map(curr.rows.map((r) => [r.itemId, r]));
    return prev.rows
      .filter((p) => p.status === 'ok' && currById.get(p.itemId)?.status === 'ok')
      .map((p) => {
        const c = currById.get(p.itemId)!;
        return {
          id: p.itemId,
          task: ctx.items.get(p.itemId)?.question ?? p.itemId,
          category: categorise(p, c),
          prev: p,
          curr: c,
        };
      });
  };
  let pairs = await roll(order.slice(0, n), '');
  if (policy === 'unchanged')
    return pairs.filter((p) => p.category === 'persistent_fail' || p.category === 'stable_success');
  if (policy === 'changed') {
    pairs = pairs.filter((p) => p.category === 'improved' || p.category === 'regressed');
    // Top up one item at a time from further down the same order, as the reference does.
    for (let i = n; i < order.length && pairs.length < n; i++) {
      pairs.push(
        ...(await roll([order[i]], `/topup${i}`)).filter(
          (p) => p.category === 'improved' || p.category === 'regressed',
        ),
      );
    }
  }
  return pairs;
}

const SECTIONS: [PairCategory, string][] = [
  ['regressed', '### Regressed (highest priority)'],
  ['persistent_fail', '### Persistent failures'],
  ['improved', '### Improved'],
  ['stable_success', '### Stable successes'],
];

export function renderComparison(pairs: readonly ComparisonPair[], ctx: EngineContext, skill = ''): string {
  const view = trajectoryView(ctx, skill);
  const count = (c: PairCategory) => pairs.filter((p) => p.category === c).length;
  const lines = [
    `${pairs.length} tasks: ${count('regressed')} regressed, ${count('persistent_fail')} persistent failures, ${count('improved')} improved, ${count('stable_success')} stable successes.`,
  ];
  const status = (r: RolloutRow) =>
    `${isPass(r.hard) ? 'PASS' : 'FAIL'} (soft ${r.soft.toFixed(2)}), answer: ${r.predicted || 'N/A'}`;
  for (const [cat, heading] of SECTIONS) {
    lines.push('', heading);
    const list = pairs.filter((p) => p.category === cat);
    if (!list.length) lines.push('(none)');
    for (const p of list) {
      const item = ctx.items.get(p.id)!;
      lines.push(`Task ${p.id}: ${p.task}`, `Before: ${status(p.prev)}`, `After: ${status(p.curr)}`);
      const currReason = shownFailReason(p.curr, view);
      const prevReason = shownFailReason(p.prev, view);
      if (currReason) lines.push(`Current fail reason: ${currReason}`);
      if (!isPass(p.prev.hard) && prevReason) lines.push(`Previous fail reason: ${prevReason}`);
      if (cat !== 'stable_success') {
        lines.push('Before:', '```', ...conversationBlock(p.prev, item, view), '```');
        lines.push('After:', '```', ...conversationBlock(p.curr, item, view), '```');
      }
    }
  }
  return lines.join('\n');
}
