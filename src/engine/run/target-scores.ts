/**
 * The best skill's validation under each other target that gated the run (issue #42 item 5): the
 * starting and the best skill's first answers on the validation items under each, beside the
 * trained target's own scores. The gate's checks rolled most of them out already: they come from
 * each target's rollout cache, and what is missing is asked under `targets/<n>/final/…`.
 */
import type { EngineContext } from '../context';
import { rolloutPhase } from '../rollout';
import type { RunDataset, RunState, TargetValidation } from '../types';
import { selectionIds } from '../validation-score';

/** Each other target's scores of the starting and the best skill on validation; none without other targets. */
export async function otherTargetScores(
  ctx: EngineContext,
  state: RunState,
  data: RunDataset,
): Promise<TargetValidation[]> {
  const ids = selectionIds(ctx.config, data);
  const out: TargetValidation[] = [];
  for (const [i, t] of (ctx.otherTargets ?? []).entries()) {
    const at = (role: string, skill: string) =>
      rolloutPhase(t.ctx, { phase: `targets/${i + 1}/final/${role}`, skill, itemIds: ids });
    const initial = await at('initial', state.initialSkill);
    const best = state.gate.bestSkill === state.initialSkill ? initial : await at('best', state.gate.bestSkill);
    out.push({ label: t.label, initial: initial.hard, best: best.hard, n: Math.min(initial.n, best.n) });
  }
  return out;
}
