/**
 * The one vocabulary of stages. Two granularities, related here and nowhere else:
 * - a *pipeline stage* is what the engine is doing now (the progress events and the dashboard);
 * - a *call stage* is what a model call is for: call counts (core/config/call-count.ts), the cost
 *   estimate, the usage meter and the benchmark all count and bill by it.
 * Each call stage belongs to one pipeline stage. Labels for people live here too.
 */

export const PIPELINE_STAGES = [
  'baseline',
  'rollout',
  'reflect',
  'aggregate',
  'select',
  'update',
  'gate',
  'slow_update',
  'meta_skill',
  'activation',
  'final',
  'test',
  'credit',
] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/** The six stages of one update step, in order (the dashboard's pipeline strip). */
export const STEP_STAGES: readonly PipelineStage[] = ['rollout', 'reflect', 'aggregate', 'select', 'update', 'gate'];

export const PIPELINE_LABELS: Record<PipelineStage, string> = {
  baseline: 'Baseline on validation',
  rollout: 'Rollout',
  reflect: 'Reflect',
  aggregate: 'Aggregate',
  select: 'Select',
  update: 'Update',
  gate: 'Gate',
  slow_update: 'Epoch boundary: slow update and meta skill',
  meta_skill: 'Meta skill',
  activation: 'Activation track: the description',
  final: 'Final validation',
  test: 'Test evaluation',
  credit: 'Section credit of the best skill',
};

/** The target's rollouts of the dataset's items (an agent's conversation is one rollout, whatever its turns). */
const ITEM_ROLLOUT = [
  'baseline',
  'rollout',
  'trainCheck',
  'gate',
  'slowUpdateRollout',
  'slowUpdateGate',
  'finalValidation',
  'test',
  'confirm',
  'gateTargets',
] as const;
/**
 * Every call of the target: its rollouts of items, of the activation track's trigger queries, and the
 * section credit's masked rollouts (counted apart: its budget holds its judge's and simulator's calls).
 */
const TARGET = [...ITEM_ROLLOUT, 'activationRollout', 'sectionCredit'] as const;
const OPTIMIZER = [
  'judge',
  'userSimulator',
  'reflect',
  'merge',
  'lrDecision',
  'rank',
  'rewrite',
  'repair',
  'appendix',
  'slowUpdate',
  'metaSkill',
  'activationRewrite',
] as const;
export type CallStage = (typeof TARGET)[number] | (typeof OPTIMIZER)[number];
/** Call stages answered by the target model, and by the optimizer (or the judge, or the user simulator). */
export const TARGET_STAGES: readonly CallStage[] = TARGET;
/** Call stages that roll out the dataset's items (a simulated user talks in these, never in the activation track's). */
export const ITEM_ROLLOUT_STAGES: readonly CallStage[] = ITEM_ROLLOUT;
export const OPTIMIZER_STAGES: readonly CallStage[] = OPTIMIZER;

export const CALL_STAGES: Record<CallStage, { label: string; pipeline: PipelineStage }> = {
  baseline: { label: 'Baseline (validation)', pipeline: 'baseline' },
  rollout: { label: 'Rollouts (train)', pipeline: 'rollout' },
  judge: { label: 'Judge', pipeline: 'rollout' },
  userSimulator: { label: 'User simulator', pipeline: 'rollout' },
  reflect: { label: 'Reflect (analysts)', pipeline: 'reflect' },
  merge: { label: 'Aggregate (merges)', pipeline: 'aggregate' },
  rank: { label: 'Select (ranking)', pipeline: 'select' },
  lrDecision: { label: 'Select (step size)', pipeline: 'select' },
  rewrite: { label: 'Update (rewrite)', pipeline: 'update' },
  trainCheck: { label: 'Train-batch check', pipeline: 'update' },
  appendix: { label: 'Appendix consolidation', pipeline: 'update' },
  repair: { label: 'Bundle repair', pipeline: 'update' },
  gate: { label: 'Gate (validation)', pipeline: 'gate' },
  slowUpdateRollout: { label: 'Slow-update rollouts', pipeline: 'slow_update' },
  slowUpdate: { label: 'Slow update', pipeline: 'slow_update' },
  metaSkill: { label: 'Meta skill', pipeline: 'meta_skill' },
  slowUpdateGate: { label: 'Slow-update gate', pipeline: 'slow_update' },
  finalValidation: { label: 'Final validation', pipeline: 'final' },
  test: { label: 'Test evaluation', pipeline: 'test' },
  confirm: { label: 'Test on confirming targets', pipeline: 'test' },
  gateTargets: { label: 'Gate on other targets', pipeline: 'gate' },
  activationRollout: { label: 'Activation: trigger queries', pipeline: 'activation' },
  activationRewrite: { label: 'Activation: description rewrite', pipeline: 'activation' },
  sectionCredit: { label: 'Section credit (masked sections)', pipeline: 'credit' },
};

/** A stage's label; a key this version does not know (an older run's) is shown as it is. */
export function callStageLabel(stage: string): string {
  return (CALL_STAGES as Record<string, { label: string } | undefined>)[stage]?.label ?? stage;
}

/**
 * The call stage of a target rollout, from its phase name: "baseline", "final", "test/best",
 * "s0003/rollout/b1", "s0003/gate", "s0003/gate-current", "s0003/check", "e02/prev", "e02/gate"…
 */
/** The price tag of a phase's target calls: a confirming target's own (`confirm/<n>`), none for the rest. */
export function priceTagOfPhase(phase: string): string | undefined {
  return /^confirm\/\d+(?=\/)/.exec(phase)?.[0];
}

export function callStageOfPhase(raw: string): CallStage {
  // A repeated sample ("s0003/gate/r2", "baseline/r1") is billed with the phase it settles.
  const phase = raw.replace(/\/(r\d+|recheck)$/, '');
  if (phase.startsWith('activation/')) return 'activationRollout';
  // Which section earns its tokens (issue #43 item 4): "credit/mask_003".
  if (phase.startsWith('credit/')) return 'sectionCredit';
  // A learning-curve point's repeats (issue #43): "baseline/curve/r1", "s0003/curve/r2", "e02/curve/r1".
  if (phase === 'baseline' || phase === 'baseline/curve') return 'baseline';
  if (/^e\d+\/curve$/.test(phase)) return 'slowUpdateGate';
  if (/^s\d+\/curve$/.test(phase)) return 'gate';
  if (/^final(-best)?(-current)?$/.test(phase)) return 'finalValidation';
  if (phase.startsWith('test/')) return 'test';
  // The starting and best skills under a target that confirms them (issue #42 item 5): "confirm/2/best".
  if (phase.startsWith('confirm/')) return 'confirm';
  // A candidate and the skill it meets under another target that gates (issue #42 item 5): "targets/1/s0003/gate".
  if (phase.startsWith('targets/')) return 'gateTargets';
  if (/^e\d+\/(prev|curr)/.test(phase)) return 'slowUpdateRollout';
  if (/^e\d+\/(gate|measure)/.test(phase)) return 'slowUpdateGate';
  // A current skill re-scored after its appendix changed outside the gate is gate work too.
  if (/\/(gate|measure)(-best)?(-current)?$/.test(phase) || /\/appendix$/.test(phase)) return 'gate';
  if (/\/check(-[a-z0-9]+)?(-current)?$/.test(phase)) return 'trainCheck';
  return 'rollout';
}

const PROMPT_STAGES: Record<string, CallStage> = {
  // A person's feedback turned into a patch: billed with the analysts'.
  feedback_edits: 'reflect',
  rank_edits: 'rank',
  rank_suggestions: 'rank',
  rewrite_skill: 'rewrite',
  appendix_consolidate: 'appendix',
  repair_edits: 'repair',
  lr_decision: 'lrDecision',
  slow_update: 'slowUpdate',
  meta_skill: 'metaSkill',
  describe_skill: 'activationRewrite',
  judge: 'judge',
  user_simulator: 'userSimulator',
};

/** The call stage of an optimizer or judge call, from its prompt name ("reflect_failure", "rank_edits"…). */
export function callStageOfPrompt(prompt: string): CallStage {
  if (prompt.startsWith('reflect_')) return 'reflect';
  if (prompt.startsWith('merge_')) return 'merge';
  const stage = PROMPT_STAGES[prompt];
  // Every prompt the engine calls is listed; a new one must be given its stage here.
  if (!stage) throw new Error(`No call stage for the prompt "${prompt}" (core/config/stages.ts)`);
  return stage;
}
