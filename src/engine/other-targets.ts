/**
 * Several targets (issue #42 item 5, `"targets"`): a candidate the run's own target accepts must
 * be no worse under each other target too. Each scores the candidate and the skill it meets on
 * validation with the run's comparator (weigh.ts or verdict.ts) — the same noise-aware verdict as
 * the gate, asked the other way: is it worse? Each target has its own context, so its rollouts
 * are cached under its own key (a resume asks nothing twice), and phases of its own
 * (`targets/<n>/<phase>`), counted and priced as the `gateTargets` stage with the run's meter.
 */
import { isGain } from '../core/verdict/epsilon';
import type { NoisePolicy } from '../core/verdict/noise';
import { compare } from './comparator';
import { contextUnder, type EngineContext } from './context';
import type { LlmPort } from './ports';
import type { Target } from './target-port';
import type { OthersVerdict, TargetCheck } from './artifacts';
import type { RunDataset } from './types';
import { selectionIds } from './validation-score';
import { GATE_WAVE } from './weigh';

/** Another target that gates: its name, and a context whose target and target port are its own. */
export type OtherTarget = NonNullable<EngineContext['otherTargets']>[number];

/** One context per other target, for a session: the run's everything but the target and its port. */
export async function otherTargetContexts(
  ctx: EngineContext,
  setups: readonly { label: string; llm: LlmPort; target: Target }[],
): Promise<OtherTarget[]> {
  const out: OtherTarget[] = [];
  for (const t of setups) {
    const other = await contextUnder(ctx, t.llm, t.target);
    // Its rounds of repeats are the step's round trips too (a step's bound counts them).
    other.verdictRounds = ctx.verdictRounds;
    out.push({ label: t.label, ctx: other });
  }
  return out;
}

/** "Worse" more likely than not: the gate asks only for no loss, not for a gain, on the other targets. */
const WORSE = 0.5;

/** One other target's verdict on the candidate against the reference, on validation. */
async function checkOn(
  t: OtherTarget,
  n: number,
  data: RunDataset,
  a: { phase: string; reference: string; candidate: string; policy: NoisePolicy },
): Promise<TargetCheck> {
  const c = t.ctx.config;
  const ids = selectionIds(c, data);
  const cmp = await compare(t.ctx, {
    phase: `targets/${n}/${a.phase}`,
    ref: a.reference,
    cand: a.candidate,
    itemIds: ids,
    policy: a.policy,
    // Early stop: once even every item left going its way could not make it no worse.
    mean: {
      values: { metric: c.gateMetric, mixedWeight: c.gateMixedWeight },
      ...(c.earlyStopGate
        ? { continueWhile: (_v, gainSum, leftMax) => !isGain(-(gainSum + leftMax) / Math.max(1, ids.length)) }
        : {}),
    },
    posterior: {
      accept: c.gateConfidence,
      // Never hopeless: the question is "worse?", not "better?" — it stops sure either way, or out of samples.
      reject: 0,
      wave: GATE_WAVE,
      neutral: true,
      untilWorse: c.earlyStopGate,
      // A loss that may be a slip is asked again before it refuses anything.
      settleLosses: true,
    },
  });
  const v = cmp.verdict;
  const worse = v.posterior ? v.posterior.pWorse > WORSE : !cmp.complete || isGain(-v.gain);
  return {
    label: t.label,
    worse,
    reference: v.posterior?.refRate ?? v.refScore,
    candidate: v.posterior?.candRate ?? v.candScore,
    n: v.n,
    pBetter: v.posterior?.pBetter ?? null,
    pWorse: v.posterior?.pWorse ?? null,
    complete: cmp.complete,
    calls: cmp.calls,
  };
}

/**
 * Ask each other target, in order, whether the candidate is worse than the reference; the first
 * that says so refuses it (the rest are not asked). Null when the run has no other target.
 */
export async function othersHold(
  ctx: EngineContext,
  data: RunDataset,
  a: { phase: string; reference: string; candidate: string; policy: NoisePolicy },
): Promise<OthersVerdict | null> {
  const others = ctx.otherTargets ?? [];
  if (!others.length) return null;
  const checks: TargetCheck[] = [];
  for (const [i, t] of others.entries()) {
    const check = await checkOn(t, i + 1, data, a);
    checks.push(check);
    if (check.worse) {
      const chance = check.pWorse !== null ? `, P(worse) ${check.pWorse.toFixed(2)}` : '';
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `${a.phase}: refused by the target ${t.label}, which finds the candidate worse on validation (${check.reference.toFixed(3)} → ${check.candidate.toFixed(3)}${chance}).`,
      });
      return { held: false, refusedBy: t.label, checks };
    }
  }
  return { held: true, refusedBy: null, checks };
}
