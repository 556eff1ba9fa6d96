/**
 * Section credit outside any run (issue #43 item 4): the skill evaluated with random subsets of its
 * sections masked, on the validation items, through the same target, rollouts, scorer and error
 * handling as training — within a budget of calls the person sets, every call counted by the
 * meter. Masks run one after another; an agent's rollouts take several calls each, so the session
 * stops before a mask that would pass the budget, and says so when too few masks were scored.
 */
import { isPass } from '../../core/verdict/credit';
import { creditPlan, leastBudget, maskDesign, minMasks, type CreditPlan } from '../../core/verdict/section-masks';
import { creditReport, type CreditReport, type MaskedRollout } from '../../core/verdict/section-credit';
import { skillOutline, withoutSections } from '../../core/skill/skill-sections';
import { rolloutPhase } from '../rollout';
import { sessionContext, stoppedBy, type EvaluateInput, type SessionDeps } from './evaluate';

export interface CreditInput extends Omit<EvaluateInput, 'split' | 'limit'> {
  /** Most calls the masks may make (every role's: an agent's simulated user counts too). */
  budget: number;
}

export type CreditOutcome =
  | {
      ok: true;
      report: CreditReport;
      plan: CreditPlan;
      /** Masks scored (fewer than planned when an agent's calls ran ahead of the plan). */
      masks: number;
      calls: number;
      rollouts: number;
      errors: number;
      costUsd: number;
    }
  | { ok: false; reason: string; kind: string };

const refuse = (reason: string): CreditOutcome => ({ ok: false, kind: 'invalid_config', reason });

/** What can be masked: unprotected sections, by index; or why nothing can. */
function maskable(skill: string): number[] | string {
  const sections = skillOutline(skill).sections;
  const columns = sections.filter((s) => !s.protected).map((s) => s.index);
  if (!sections.length) return 'The skill has no sections to credit: give its parts markdown headings (## …).';
  if (!columns.length) return 'Every section of the skill holds a protected region: none may be masked.';
  return columns;
}

export async function creditSections(input: CreditInput, deps: SessionDeps): Promise<CreditOutcome> {
  const columns = maskable(input.skill);
  if (typeof columns === 'string') return refuse(columns);
  const val = input.data.splits.val;
  if (val.length < 2) return refuse(`Section credit needs at least 2 validation items; this split has ${val.length}.`);
  const plan = creditPlan(columns.length, val.length, input.budget);
  if (!plan)
    return refuse(
      `A budget of ${input.budget} calls is too small for ${columns.length} section(s): ` +
        `${minMasks(columns.length)} masks on 2 validation items need at least ${leastBudget(columns.length)}.`,
    );
  const ctx = await sessionContext('section-credit', input, deps);
  const calls = () => Object.values(ctx.meter.byStage).reduce((n, s) => n + s.calls, 0);
  const design = maskDesign(columns.length, plan.masks, input.config.seed);
  const outline = skillOutline(input.skill);
  const itemIds = val.slice(0, plan.items);
  const rollouts: MaskedRollout[] = [];
  // A mask drawn again is a fresh sample, never the cached one: a stochastic target's slips count.
  const seen = new Map<string, number>();
  let done = 0;
  try {
    for (const [m, kept] of design.entries()) {
      // Stop before a mask the calls so far say would pass the budget (an agent's rollouts take several).
      if (done > 0 && calls() + calls() / done > input.budget) break;
      const drop = new Set(columns.filter((_, c) => !kept[c]));
      const skill = withoutSections(input.skill, outline, drop);
      const repeat = seen.get(skill) ?? 0;
      seen.set(skill, repeat + 1);
      const phase = `credit/mask_${String(m + 1).padStart(3, '0')}`;
      const r = await rolloutPhase(ctx, { phase, skill, itemIds, ...(repeat ? { repeat } : {}) });
      for (const row of r.rows)
        rollouts.push({
          mask: m,
          itemId: row.itemId,
          pass: row.status === 'ok' ? (isPass(row.hard) ? 1 : 0) : null,
          promptTokens: row.usage.promptTokens,
        });
      done++;
    }
  } catch (e) {
    return stoppedBy(e);
  }
  const used = calls();
  const tooFew = () =>
    refuse(
      `The budget of ${input.budget} calls scored ${done} of the ${minMasks(columns.length)} masks ${columns.length} ` +
        `section(s) need (${(used / Math.max(1, rollouts.length)).toFixed(1)} calls per rollout): raise --budget.`,
    );
  if (done < minMasks(columns.length)) return tooFew();
  const report = creditReport(input.skill, {
    design: design.slice(0, done),
    columns,
    rollouts,
    ...(input.prices?.target ? { price: input.prices.target } : {}),
    seed: input.config.seed,
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
    calls: used,
    rollouts: rollouts.length,
    errors: rollouts.filter((r) => r.pass === null).length,
    costUsd: ctx.meter.totalCostUsd,
  };
}
