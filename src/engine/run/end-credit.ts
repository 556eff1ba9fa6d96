/**
 * Section credit of the best skill when training ends (issue #43 item 4; config.sectionCreditBudget):
 * after the test, the best skill is evaluated with random halves of its sections masked on the
 * validation items, within the budget, through the run's own context — its meter and cap, its
 * store — and the result joins the run's summary (the report, the Runs screen, the runner's JSON).
 * Each mask is a checkpoint, so an interrupted credit resumes from the rollouts it stored. A credit
 * that cannot be made (no sections, too small a budget) is recorded with its reason: the run stands.
 * Returns the summary with the credit in it (and the run's usage, the credit's calls included).
 */
import type { Price } from '../meter';
import type { TrainSession } from '../session';
import type { RunSectionCredit, RunState, RunSummary } from '../types';
import { creditOnContext, type CreditProgress } from './section-credit';

export async function endCredit(
  session: TrainSession,
  prev: RunState,
  o: { price?: Price; checkpoint: (p: CreditProgress) => Promise<void> },
): Promise<RunSummary> {
  const { ctx, data } = session;
  const budget = ctx.config.sectionCreditBudget;
  session.stage('credit', session.totalSteps, ctx.config.epochs);
  const r = await creditOnContext(ctx, {
    skill: prev.gate.bestSkill,
    val: data.splits.val,
    budget,
    seed: ctx.config.seed,
    ...(o.price ? { price: o.price } : {}),
    ...(prev.creditProgress ? { resumed: prev.creditProgress } : {}),
    onMask: o.checkpoint,
  });
  const summary = prev.summary!;
  // What the run spent beyond its summary (written before the credit) is the credit's, on any resume.
  const costUsd = Math.max(0, ctx.meter.totalCostUsd - summary.totalCostUsd);
  const credit: RunSectionCredit = r.ok ? { ...r, budget, costUsd } : { ok: false, reason: r.reason, budget };
  ctx.emit({
    type: 'log',
    level: r.ok ? 'info' : 'warn',
    message: r.ok
      ? `Section credit of the best skill: ${r.masks} masks on ${r.plan.items} validation items, ${r.calls} calls of ${budget}.`
      : `Section credit of the best skill was not made: ${r.reason}`,
  });
  return {
    ...summary,
    sectionCredit: credit,
    usage: structuredClone(ctx.meter.byStage),
    totalCostUsd: ctx.meter.totalCostUsd,
  };
}
