/**
 * Section credit (issue #43 item 4): the skill evaluated with random subsets of its sections masked,
 * on the validation items, through the same target, rollouts, scorer and error handling as training —
 * within a budget of calls the person sets, every call counted by the meter. Masks run one after
 * another; an agent's rollouts take several calls each, so the credit stops before a mask that would
 * pass the budget, and says so when too few masks were scored. It runs outside any run (on demand)
 * or at a run's end on the best skill (end-credit.ts), where each mask is a checkpoint: a resumed
 * credit reads the masks it scored from the store and goes on with the calls it had spent.
 */
import { isPass } from '../../core/verdict/credit';
import { creditPlan, leastBudget, maskDesign, minMasks, type CreditPlan } from '../../core/verdict/section-masks';
import { creditReport, type MaskedRollout } from '../../core/verdict/section-credit';
import { skillOutline, withoutSections } from '../../core/skill/skill-sections';
import type { EngineContext } from '../context';
import { rolloutPhase } from '../rollout';
import type { RolloutRow, SectionCreditFigures } from '../types';
import { sessionContext, stoppedBy, type EvaluateInput, type SessionDeps } from './evaluate';

export interface CreditInput extends Omit<EvaluateInput, 'split' | 'limit'> {
  /** Most calls the masks may make (every role's: an agent's simulated user counts too). */
  budget: number;
}

/** How far a credit got: masks scored and the calls they made (a run's checkpoint). */
export interface CreditProgress {
  masks: number;
  calls: number;
}

type CreditFigures = SectionCreditFigures;

export type CreditOutcome =
  ({ ok: true; costUsd: number } & CreditFigures) | { ok: false; reason: string; kind: string };
export type CreditResult = ({ ok: true } & CreditFigures) | { ok: false; reason: string; kind: string };

const refuse = (reason: string) => ({ ok: false as const, kind: 'invalid_config', reason });

/**
 * A rollout's prompt tokens: a row the rollout cache answered carries no usage (no call was made), so
 * the tokens are the first rollout's; an errored call's are unknown.
 */
async function promptTokensOf(ctx: EngineContext, row: RolloutRow): Promise<number | null> {
  if (row.status !== 'ok') return null;
  if (!row.cached) return row.usage.promptTokens;
  const first = await ctx.store.findRollout(ctx.runId, row.cacheKey);
  return first && !first.cached ? first.usage.promptTokens : null;
}

/** What can be masked: unprotected sections, by index; or why nothing can. */
function maskable(skill: string): number[] | string {
  const sections = skillOutline(skill).sections;
  const columns = sections.filter((s) => !s.protected).map((s) => s.index);
  if (!sections.length) return 'The skill has no sections to credit: give its parts markdown headings (## …).';
  if (!columns.length) return 'Every section of the skill holds a protected region: none may be masked.';
  return columns;
}

export interface CreditOnContext {
  skill: string;
  /** The validation items, in their order (the plan scores the first ones). */
  val: readonly string[];
  budget: number;
  seed: number;
  /** The target's input price (USD per million tokens), for the cost per task. */
  price?: { input: number };
  /** Where an interrupted credit stopped: its masks are read back from the store, its calls kept. */
  resumed?: CreditProgress;
  /** After each mask scored: a run saves it as its checkpoint. */
  onMask?: (p: CreditProgress) => Promise<void>;
}

/** The maskable sections and the plan for a budget, or why the credit cannot be made (before any call). */
export function planCredit(
  skill: string,
  val: number,
  budget: number,
): { ok: true; columns: number[]; plan: CreditPlan } | { ok: false; reason: string; kind: string } {
  const columns = maskable(skill);
  if (typeof columns === 'string') return refuse(columns);
  if (val < 2) return refuse(`Section credit needs at least 2 validation items; this split has ${val}.`);
  const plan = creditPlan(columns.length, val, budget);
  if (!plan)
    return refuse(
      `A budget of ${budget} calls is too small for ${columns.length} section(s): ` +
        `${minMasks(columns.length)} masks on 2 validation items need at least ${leastBudget(columns.length)}.`,
    );
  return { ok: true, columns, plan };
}

/** The masked rollouts and the report, on an engine context; a pause or failed call is thrown on. */
export async function creditOnContext(ctx: EngineContext, o: CreditOnContext): Promise<CreditResult> {
  const planned = planCredit(o.skill, o.val.length, o.budget);
  if (!planned.ok) return planned;
  const { columns, plan } = planned;
  const metered = () => Object.values(ctx.meter.byStage).reduce((n, s) => n + s.calls, 0);
  const design = maskDesign(columns.length, plan.masks, o.seed);
  const outline = skillOutline(o.skill);
  const itemIds = o.val.slice(0, plan.items);
  const rollouts: MaskedRollout[] = [];
  const resumed = o.resumed ?? { masks: 0, calls: 0 };
  // A mask drawn again is a fresh sample, never the cached one: a stochastic target's slips count.
  const seen = new Map<string, number>();
  let calls = resumed.calls;
  let done = 0;
  for (const [m, kept] of design.entries()) {
    // Stop before a mask the calls so far say would pass the budget (an agent's rollouts take several).
    if (m >= resumed.masks && done > 0 && calls + calls / done > o.budget) break;
    const drop = new Set(columns.filter((_, c) => !kept[c]));
    const skill = withoutSections(o.skill, outline, drop);
    const repeat = seen.get(skill) ?? 0;
    seen.set(skill, repeat + 1);
    const phase = `credit/mask_${String(m + 1).padStart(3, '0')}`;
    const before = metered();
    const r = await rolloutPhase(ctx, { phase, skill, itemIds, ...(repeat ? { repeat } : {}) });
    for (const row of r.rows)
      rollouts.push({
        mask: m,
        itemId: row.itemId,
        pass: row.status === 'ok' ? (isPass(row.hard) ? 1 : 0) : null,
        promptTokens: await promptTokensOf(ctx, row),
      });
    done++;
    // A mask scored before the interruption is read back from the store: its calls are counted already.
    if (m >= resumed.masks) {
      calls += metered() - before;
      await o.onMask?.({ masks: done, calls });
    }
  }
  if (done < minMasks(columns.length))
    return refuse(
      `The budget of ${o.budget} calls scored ${done} of the ${minMasks(columns.length)} masks ${columns.length} ` +
        `section(s) need (${(calls / Math.max(1, rollouts.length)).toFixed(1)} calls per rollout): raise the budget.`,
    );
  const report = creditReport(o.skill, {
    design: design.slice(0, done),
    columns,
    rollouts,
    ...(o.price ? { price: o.price } : {}),
    seed: o.seed,
  });
  if (!report)
    return refuse(
      'Too few validation items answered without an error to fit any section’s effect: nothing was scored.',
    );
  return {
    ok: true,
    report,
    plan,
    masks: done,
    calls,
    rollouts: rollouts.length,
    errors: rollouts.filter((r) => r.pass === null).length,
  };
}

/** Section credit outside any run: a session of its own on the skill as it is. */
export async function creditSections(input: CreditInput, deps: SessionDeps): Promise<CreditOutcome> {
  const val = input.data.splits.val;
  const planned = planCredit(input.skill, val.length, input.budget);
  if (!planned.ok) return planned;
  const ctx = await sessionContext('section-credit', input, deps);
  try {
    const r = await creditOnContext(ctx, {
      skill: input.skill,
      val,
      budget: input.budget,
      seed: input.config.seed,
      ...(input.prices?.target ? { price: input.prices.target } : {}),
    });
    return r.ok ? { ...r, costUsd: ctx.meter.totalCostUsd } : r;
  } catch (e) {
    return stoppedBy(e);
  }
}
