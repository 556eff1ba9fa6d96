import { detectableGainItems } from '../../core/verdict/noise';
import type { CostEstimate } from '../../worker/api-types';
import { useApp } from '../../store/app-store';

/** The flip rate the advice assumes before a run has measured one: typical of a sampled model. */
const ASSUMED_FLIP = 0.1;
/** Call stages paid once per run rather than per step. */
const ONCE = ['baseline', 'finalValidation', 'test', 'slowUpdateRollout', 'slowUpdate', 'slowUpdateGate', 'metaSkill'];

const pts = (x: number) => `${(x * 100).toFixed(1)} points`;

/**
 * Before a run (issue #19): what the validation split can resolve on a noisy target, and what
 * a budget cap buys in steps and gate comparisons — beside the batch size and the cap (issue #33). Sampled and reasoning models are stochastic:
 * the same question can get different answers, which small validation splits cannot average out.
 */
export function NoiseAdvice({
  validation,
  estimate,
  budgetUsd,
  steps,
}: {
  validation: number;
  estimate: CostEstimate | null;
  budgetUsd?: number;
  steps: number;
}) {
  const target = useApp((s) => s.connection.target);
  if (validation <= 0) return null;
  const stochastic = (target.temperature ?? 0) > 0 || target.reasoningModel === true || Boolean(target.reasoningEffort);
  const k = detectableGainItems(validation, ASSUMED_FLIP);
  const perStep =
    estimate && estimate.totalCostUsd !== null && steps > 0
      ? Object.entries(estimate.stages).reduce(
          (a, [stage, e]) => a + (ONCE.includes(stage) ? 0 : (e?.costUsd ?? 0)),
          0,
        ) / steps
      : null;
  const once =
    estimate && estimate.totalCostUsd !== null && perStep !== null ? estimate.totalCostUsd - perStep * steps : null;
  const affordable =
    budgetUsd && perStep && once !== null
      ? Math.max(0, Math.min(steps, Math.floor((budgetUsd - once) / perStep)))
      : null;
  return (
    <div className="note" role="note" aria-label="What validation can tell apart">
      <p>
        {validation} validation items: one item is {pts(1 / validation)}.{' '}
        {stochastic
          ? `Your target samples its answers (${(target.temperature ?? 0) > 0 ? `temperature ${target.temperature}` : 'a reasoning model'}):`
          : 'Even at temperature 0 a target may vary (the run measures it):'}{' '}
        if it changes about {Math.round(ASSUMED_FLIP * 100)}% of its answers when asked again, one answer per item
        cannot tell a gain below {k} item{k === 1 ? '' : 's'} ({pts(k / validation)}) from noise — verdicts are settled
        by asking again where the two skills disagree.
        {validation < 30 && ' More validation items (Data) sharpen every verdict.'}
      </p>
      <p className="muted">
        {affordable !== null
          ? `A $${budgetUsd!.toFixed(2)} cap buys about ${affordable} of the ${steps} steps — ${affordable} gate comparison${affordable === 1 ? '' : 's'} on ${validation} items — at the estimate's upper bound; a noisy target costs more.`
          : `The run makes up to ${steps} gate comparison${steps === 1 ? '' : 's'} on ${validation} items (one per step), plus one per epoch for the slow update.`}
      </p>
    </div>
  );
}
