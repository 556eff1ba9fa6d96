/**
 * Stage 2, reflect — the "backward pass" (algorithm doc §3.1): failures and successes are
 * shuffled with the batch seed, cut into minibatches, and each minibatch goes to an analyst.
 * Calls run up to the optimizer concurrency; results are combined in minibatch order, never completion order.
 */
import { reflectMinibatches } from '../../core/config/batching';
import { validatePayload, type JsonObject } from '../../core/basics/json-extract';
import { normaliseSkillCandidate, normaliseSuggestion } from '../../core/skill/update-modes';
import type { EngineContext } from '../context';
import { callOptimizer, checkErrorRate, type OptimizerResult } from '../optimizer-call';
import { renderTrajectory } from '../trajectory';
import { trajectoryView } from '../trajectory';
import type { RolloutRow } from '../types';
import { isPass } from '../../core/verdict/credit';
import { MODE_PROMPTS } from './mode-prompts';
import { STAGE_SCHEMAS, withAppendixNotes } from '../schemas';

/** One analyst's proposals: edits, revise suggestions or one whole skill, by update mode. */
export interface AnalystPatch {
  reasoning: string;
  items: JsonObject[];
  source_type: 'failure' | 'success';
}

export interface ReflectResult {
  failure: AnalystPatch[];
  success: AnalystPatch[];
  /** "<failure_type>: <description>" lines from the failure analysts. */
  summaries: string[];
  /** Skill-aware reflection: reminders for rules that exist but were not followed (§3.8). */
  appendixNotes: string[];
  calls: number;
}

export interface ReflectInput {
  keyPrefix: string;
  rows: readonly RolloutRow[];
  skill: string;
  batchSeed: number;
  bufferText: string;
  metaText: string;
}

/** Take the inner patch, drop it if empty, default source_type and support_count (§1.6). */
export function normaliseAnalyst(
  raw: JsonObject | null,
  kind: 'failure' | 'success',
  budget: number,
  field: 'edits' | 'revise_suggestions' | 'skill_candidates' = 'edits',
): AnalystPatch | null {
  if (!raw) return null;
  const patch = raw.patch as JsonObject | undefined;
  const check = validatePayload(patch, field);
  if (!check.ok) return null;
  // Suggestions and whole skills are checked item by item; a full-rewrite analyst writes exactly one skill.
  const valid =
    field === 'revise_suggestions'
      ? check.items.map(normaliseSuggestion).filter((x) => x !== null)
      : field === 'skill_candidates'
        ? check.items
            .map(normaliseSkillCandidate)
            .filter((x) => x !== null)
            .slice(0, 1)
        : check.items;
  if (valid.length === 0) return null;
  const support = Math.max(Number(raw.batch_size) || 0, 1);
  const items = (valid as JsonObject[]).slice(0, budget).map((e) => ({
    ...e,
    source_type: kind,
    support_count: typeof e.support_count === 'number' && e.support_count > 0 ? e.support_count : support,
  }));
  return { reasoning: String(patch?.reasoning ?? ''), items, source_type: kind };
}

export async function reflect(ctx: EngineContext, input: ReflectInput): Promise<ReflectResult> {
  const ok = input.rows.filter((r) => r.status === 'ok');
  const groups = reflectMinibatches(
    ok.filter((r) => !isPass(r.hard)),
    ok.filter((r) => isPass(r.hard)),
    input.batchSeed,
    ctx.config.minibatchSize,
    ctx.config.failureOnly,
  );
  const budget = ctx.config.editBudget; // the analyst cap is the maximum budget, not the scheduled one
  const mode = MODE_PROMPTS[ctx.config.updateMode];
  // Skill-aware reflection asks failure analysts (and success analysts unless failure_only) for reminders.
  const aware = (kind: 'failure' | 'success') =>
    ctx.config.skillAwareReflection &&
    ctx.config.updateMode === 'patch' &&
    (kind === 'failure' || ctx.config.appendixSource === 'both');
  const call = (kind: 'failure' | 'success', rows: RolloutRow[], i: number): Promise<OptimizerResult> =>
    callOptimizer(
      ctx,
      `${input.keyPrefix}/reflect_${kind}/${i}`,
      mode.reflect[kind],
      // Built only once the call holds a slot: many minibatches never hold their prompts at once.
      () => ({
        skill: input.skill,
        failure: kind === 'failure' ? 'yes' : '',
        skill_aware: aware(kind) ? 'yes' : '',
        budget: String(budget),
        buffer: input.bufferText,
        meta: input.metaText,
        count: String(rows.length),
        trajectories: rows
          .map((r, j) =>
            renderTrajectory(
              j + 1,
              r,
              ctx.items.get(r.itemId)!,
              input.skill,
              ctx.rolloutTemplate,
              ctx.config.rollout.contextLimit,
              trajectoryView(ctx, input.skill),
            ),
          )
          .join('\n\n---\n\n'),
      }),
      'optimizer',
      undefined,
      aware(kind) ? withAppendixNotes(STAGE_SCHEMAS[mode.reflect[kind]]) : undefined,
    );
  const [fail, succ] = await Promise.all([
    Promise.all(groups.failure.map((rows, i) => call('failure', rows, i))),
    Promise.all(groups.success.map((rows, i) => call('success', rows, i))),
  ]);
  checkErrorRate(ctx, 'analyst', [...fail, ...succ]);
  const summaries: string[] = [];
  for (const r of fail) {
    const list = r.json?.failure_summary;
    if (Array.isArray(list)) {
      for (const s of list) {
        if (s && typeof s === 'object') {
          const o = s as Record<string, unknown>;
          summaries.push(`${String(o.failure_type ?? 'other')}: ${String(o.description ?? '')}`);
        }
      }
    }
  }
  const appendixNotes: string[] = [];
  for (const [list, kind] of [
    [fail, 'failure'],
    [succ, 'success'],
  ] as const) {
    if (!aware(kind)) continue;
    for (const r of list) {
      const notes = r.json?.appendix_notes;
      if (Array.isArray(notes))
        for (const n of notes) if (typeof n === 'string' && n.trim()) appendixNotes.push(n.trim());
    }
  }
  return {
    appendixNotes,
    failure: fail
      .map((r) => normaliseAnalyst(r.json, 'failure', budget, mode.field))
      .filter((p): p is AnalystPatch => p !== null),
    success: succ
      .map((r) => normaliseAnalyst(r.json, 'success', budget, mode.field))
      .filter((p): p is AnalystPatch => p !== null),
    summaries,
    calls: fail.length + succ.length,
  };
}
