/**
 * Stage 3, aggregate (algorithm doc §3.2): a failure-first hierarchical merge. Patches are
 * merged K at a time, level by level, until one remains; the failure and success trees run in
 * parallel (the reference runs them one after the other), then one final merge combines them.
 * An unusable merge reply falls back to concatenating its inputs (§2.10).
 */
import { chunk } from '../core/batching';
import { validatePayload } from '../core/json-extract';
import type { Edit, Patch } from '../core/edits';
import type { EngineContext } from './context';
import { callOptimizer, checkErrorRate, type OptimizerResult } from './optimizer-call';

export interface AggregateResult {
  merged: Patch;
  calls: number;
  fallbacks: number;
}

function patchJson(patches: readonly Patch[]): string {
  return JSON.stringify(patches.map((p) => ({ reasoning: p.reasoning, edits: p.edits })), null, 2);
}

async function mergeTree(
  ctx: EngineContext,
  keyPrefix: string,
  kind: 'failure' | 'success',
  patches: readonly Patch[],
  skill: string,
  metaText: string,
  stats: { calls: number; fallbacks: number; results: OptimizerResult[] },
): Promise<Patch> {
  if (patches.length === 0) return { reasoning: 'no patches', edits: [] };
  let list = [...patches];
  if (list.length === 1) return list[0];
  const K = Math.max(2, ctx.config.mergeBatchSize);
  let level = 0;
  while (list.length > 1) {
    level++;
    const groups = chunk(list, K);
    list = await Promise.all(
      groups.map(async (group, g): Promise<Patch> => {
        if (group.length === 1) return group[0];
        stats.calls++;
        const r = await callOptimizer(
          ctx,
          `${keyPrefix}/merge_${kind}/L${level}/G${g}`,
          kind === 'failure' ? 'merge_failure' : 'merge_success',
          { meta: metaText, skill, count: String(group.length), level: String(level), patches: patchJson(group) },
        );
        stats.results.push(r);
        const check = validatePayload(r.json, 'edits');
        if (!check.ok) {
          stats.fallbacks++;
          return { reasoning: `fallback: concatenated ${group.length} patches`, edits: group.flatMap((p) => p.edits.map((e) => ({ ...e, merge_level: level }))) };
        }
        const edits = (check.items as unknown as Edit[]).map((e) => ({ ...e, source_type: e.source_type ?? kind, merge_level: level }));
        return { reasoning: String(r.json?.reasoning ?? ''), edits };
      }),
    );
  }
  return list[0];
}

export async function aggregate(
  ctx: EngineContext,
  keyPrefix: string,
  failure: readonly Patch[],
  success: readonly Patch[],
  skill: string,
  metaText: string,
): Promise<AggregateResult> {
  const stats = { calls: 0, fallbacks: 0, results: [] as OptimizerResult[] };
  const [mf, ms] = await Promise.all([
    mergeTree(ctx, keyPrefix, 'failure', failure, skill, metaText, stats),
    mergeTree(ctx, keyPrefix, 'success', success, skill, metaText, stats),
  ]);
  let merged: Patch;
  if (!mf.edits.length && !ms.edits.length) merged = { reasoning: 'no edits', edits: [] };
  else if (!ms.edits.length) merged = mf;
  else if (!mf.edits.length) merged = ms;
  else {
    stats.calls++;
    const r = await callOptimizer(
      ctx,
      `${keyPrefix}/merge_final`,
      'merge_final',
      { meta: metaText, skill, failure_count: String(mf.edits.length), success_count: String(ms.edits.length), groups: patchJson([mf, ms]) },
    );
    stats.results.push(r);
    const check = validatePayload(r.json, 'edits');
    if (check.ok) merged = { reasoning: String(r.json?.reasoning ?? ''), edits: check.items as unknown as Edit[] };
    else {
      stats.fallbacks++;
      merged = { reasoning: 'fallback: failure edits, then success edits', edits: [...mf.edits, ...ms.edits] };
    }
  }
  checkErrorRate(ctx, 'merge', stats.results);
  return { merged, calls: stats.calls, fallbacks: stats.fallbacks };
}
