/**
 * Stage 4's step size (algorithm doc §3.4, §4.1): the schedule's budget for this step, or the
 * optimizer's own decision in autonomous mode (the schedule is then not stepped). Full-rewrite
 * mode has no budget: its merged skill is the candidate.
 */
import { decideLearningRate } from '../../core/config/learning-rate';
import { stepSchedule, type ScheduleState } from '../../core/config/schedules';
import type { EngineContext } from '../context';
import { callOptimizer, checkErrorRate } from '../optimizer-call';
import { putStepArtifact } from '../artifacts';

export interface BudgetInput {
  key: string;
  current: string;
  /** The proposals, one line each, as the step-size prompt shows them. */
  lines: string[];
  metaText: string;
  bufferText: string;
  /** The step's scored train rollouts and their mean scores. */
  n: number;
  hard: number;
  soft: number;
}

/** The step's budget and, in fixed mode, the stepped schedule (the step writes it). */
export interface BudgetOutcome {
  /** Null in full-rewrite mode: the merged skill is the candidate. */
  budget: number | null;
  schedule?: ScheduleState;
}

export async function chooseBudget(
  ctx: EngineContext,
  schedule: ScheduleState,
  a: BudgetInput,
): Promise<BudgetOutcome> {
  const c = ctx.config;
  if (c.updateMode === 'full_rewrite') return { budget: null };
  if (c.lrControlMode !== 'autonomous') {
    const next = stepSchedule(schedule);
    return { budget: next.budget, schedule: next.state };
  }
  const r = await callOptimizer(ctx, `${a.key}/lr_decision`, 'lr_decision', {
    meta: a.metaText,
    skill: a.current,
    n: String(a.n),
    hard: a.hard.toFixed(6),
    soft: a.soft.toFixed(6),
    count: String(a.lines.length),
    items: a.lines.join('\n'),
    buffer: a.bufferText,
  });
  checkErrorRate(ctx, 'lr_decision', [r]);
  const d = decideLearningRate(r.json?.learning_rate, a.lines.length);
  await putStepArtifact(ctx, a.key, 'lr_decision', {
    ...d,
    reasoning: r.json?.reasoning ?? '',
    confidence: r.json?.confidence ?? '',
    risk_notes: r.json?.risk_notes ?? [],
  });
  return { budget: d.learningRate };
}
