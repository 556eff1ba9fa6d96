/**
 * Stage 3, aggregate (algorithm doc §3.2): a failure-first hierarchical merge. Patches are
 * merged K at a time, level by level, until one remains; the failure and success trees run in
 * parallel (the reference runs them one after the other), then one final merge combines them.
 * An unusable merge reply falls back to concatenating its inputs (§2.10). The items are edits,
 * revise suggestions or whole skills, by update mode (engine/mode-prompts.ts).
 */
import { chunk } from '../../core/config/batching';
import { validatePayload, type JsonObject } from '../../core/basics/json-extract';
import type { Edit, Patch } from '../../core/skill/edits';
import type { EngineContext } from '../context';
import { callOptimizer, checkErrorRate, type OptimizerResult } from '../optimizer-call';
import { MODE_PROMPTS, type ModePrompts } from './mode-prompts';

/** A merged list of proposals (a Patch in patch mode, whose items are edits). */
export interface Proposals {
  reasoning: string;
  items: JsonObject[];
}

/**
 * Patch mode's merged proposals as a patch. The optimizer's edit objects are kept as it wrote
 * them: the edit screen and the apply report judge a malformed one (an unknown or missing op is
 * an edit that does not apply, never a reason to lose the step), so nothing is dropped here.
 */
export function mergedPatch(p: Proposals): Patch {
  return { reasoning: p.reasoning, edits: p.items.map((e): Edit => ({ ...e, op: e.op as Edit['op'] })) };
}

export interface AggregateResult {
  merged: Proposals;
  calls: number;
  fallbacks: number;
}

function patchJson(patches: readonly Proposals[], field: string): string {
  return JSON.stringify(
    patches.map((p) => ({ reasoning: p.reasoning, [field]: p.items })),
    null,
    2,
  );
}

async function mergeTree(
  ctx: EngineContext,
  mode: ModePrompts,
  keyPrefix: string,
  kind: 'failure' | 'success',
  patches: readonly Proposals[],
  skill: string,
  metaText: string,
  stats: { calls: number; fallbacks: number; results: OptimizerResult[] },
): Promise<Proposals> {
  if (patches.length === 0) return { reasoning: 'no patches', items: [] };
  let list = [...patches];
  if (list.length === 1) return list[0];
  const K = Math.max(2, ctx.config.mergeBatchSize);
  let level = 0;
  while (list.length > 1) {
    level++;
    const groups = chunk(list, K);
    list = await Promise.all(
      groups.map(async (group, g): Promise<Proposals> => {
        if (group.length === 1) return group[0];
        stats.calls++;
        const r = await callOptimizer(ctx, `${keyPrefix}/merge_${kind}/L${level}/G${g}`, mode.merge[kind], {
          meta: metaText,
          skill,
          count: String(group.length),
          level: String(level),
          patches: patchJson(group, mode.field),
          final: '',
        });
        stats.results.push(r);
        const check = validatePayload(r.json, mode.field);
        if (!check.ok || (mode.field !== 'edits' && check.items.length === 0)) {
          stats.fallbacks++;
          return {
            reasoning: `fallback: concatenated ${group.length} patches`,
            items: group.flatMap((p) => p.items.map((e) => ({ ...e, merge_level: level }))),
          };
        }
        const items = check.items.map((e) => ({ ...e, source_type: e.source_type ?? kind, merge_level: level }));
        return { reasoning: String(r.json?.reasoning ?? ''), items };
      }),
    );
  }
  return list[0];
}

export async function aggregate(
  ctx: EngineContext,
  keyPrefix: string,
  failure: readonly Proposals[],
  success: readonly Proposals[],
  skill: string,
  metaText: string,
): Promise<AggregateResult> {
  const mode = MODE_PROMPTS[ctx.config.updateMode];
  const stats = { calls: 0, fallbacks: 0, results: [] as OptimizerResult[] };
  const [mf, ms] = await Promise.all([
    mergeTree(ctx, mode, keyPrefix, 'failure', failure, skill, metaText, stats),
    mergeTree(ctx, mode, keyPrefix, 'success', success, skill, metaText, stats),
  ]);
  let merged: Proposals;
  if (!mf.items.length && !ms.items.length) merged = { reasoning: 'no edits', items: [] };
  else if (!ms.items.length) merged = mf;
  else if (!mf.items.length) merged = ms;
  else {
    stats.calls++;
    const groups = patchJson([mf, ms], mode.field);
    const r = await callOptimizer(ctx, `${keyPrefix}/merge_final`, mode.merge.final, {
      meta: metaText,
      skill,
      failure_count: String(mf.items.length),
      success_count: String(ms.items.length),
      groups,
      // The mode prompts that merge at every level read the final pair like any group.
      count: '2',
      level: 'final',
      patches: groups,
      final: 'yes',
    });
    stats.results.push(r);
    const check = validatePayload(r.json, mode.field);
    if (check.ok && (mode.field === 'edits' || check.items.length > 0))
      merged = { reasoning: String(r.json?.reasoning ?? ''), items: check.items };
    else {
      stats.fallbacks++;
      merged = { reasoning: 'fallback: failure edits, then success edits', items: [...mf.items, ...ms.items] };
    }
  }
  checkErrorRate(ctx, 'merge', stats.results);
  return { merged, calls: stats.calls, fallbacks: stats.fallbacks };
}
