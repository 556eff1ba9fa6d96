/**
 * How many LLM calls each stage makes (algorithm doc §6) — the basis of the cost estimate and
 * of the benchmark's checks. The step formulas are exact given what a step observed; the run
 * estimate is an upper bound under stated assumptions.
 */
import { deriveSteps, testTries, type RunConfig } from './run-config';
import { ITEM_ROLLOUT_STAGES, OPTIMIZER_STAGES, TARGET_STAGES, type CallStage } from './stages';

/** Calls of a hierarchical merge of n patches with fan-in K (groups of one pass through free). */
export function mergeTreeCalls(n: number, mergeBatchSize: number): number {
  const K = Math.max(2, mergeBatchSize);
  let calls = 0;
  let left = n;
  while (left > 1) {
    const groups = Math.ceil(left / K);
    const singles = left % K === 1 ? 1 : 0;
    calls += groups - singles;
    left = groups;
  }
  return calls;
}

/** Analyst calls for F failures and S successes with minibatch size M. */
export function reflectCalls(failures: number, successes: number, minibatchSize: number, failureOnly = false): number {
  return Math.ceil(failures / minibatchSize) + (failureOnly ? 0 : Math.ceil(successes / minibatchSize));
}

/** Merge calls of a step: both trees, plus the final merge when both came back non-empty. */
export function mergeCalls(failurePatches: number, successPatches: number, mergeBatchSize: number): number {
  return (
    mergeTreeCalls(failurePatches, mergeBatchSize) +
    mergeTreeCalls(successPatches, mergeBatchSize) +
    (failurePatches > 0 && successPatches > 0 ? 1 : 0)
  );
}

/** Ranking makes one call iff the merged patch has more items than the budget (and a budget exists). */
export function rankCalls(mergedEdits: number, budget: number): number {
  return budget > 0 && mergedEdits > budget ? 1 : 0;
}

/** Calls are counted by call stage (core/config/stages.ts). */
export type Stage = CallStage;
export { TARGET_STAGES, OPTIMIZER_STAGES };

export type StageCounts = Record<Stage, number>;

export function emptyCounts(): StageCounts {
  return {
    baseline: 0,
    rollout: 0,
    judge: 0,
    userSimulator: 0,
    reflect: 0,
    merge: 0,
    lrDecision: 0,
    rank: 0,
    rewrite: 0,
    appendix: 0,
    trainCheck: 0,
    repair: 0,
    gate: 0,
    slowUpdateRollout: 0,
    slowUpdate: 0,
    metaSkill: 0,
    slowUpdateGate: 0,
    finalValidation: 0,
    test: 0,
    confirm: 0,
    gateTargets: 0,
    activationRollout: 0,
    activationRewrite: 0,
    sectionCredit: 0,
  };
}

/** What one step observed, from which its call counts follow exactly. */
export interface StepObservation {
  batchItems: number;
  failures: number;
  /** Analyst calls that came back with at least one edit, by kind. */
  failurePatches: number;
  successPatches: number;
  mergedEdits: number;
  budget: number;
  /** Validation items rolled out for the candidate (0 on a cache hit; fewer on an early stop). */
  gateRollouts: number;
}

export function stepCalls(
  o: StepObservation,
  c: Pick<RunConfig, 'minibatchSize' | 'mergeBatchSize' | 'failureOnly' | 'scorer' | 'lrControlMode'> & {
    updateMode?: RunConfig['updateMode'];
  },
): Partial<StageCounts> {
  const mode = c.updateMode ?? 'patch';
  const judged = c.scorer.kind === 'judge';
  const skipped = o.failurePatches + o.successPatches === 0;
  return {
    rollout: o.batchItems,
    judge: judged ? o.batchItems + o.gateRollouts : 0,
    reflect: reflectCalls(o.failures, o.batchItems - o.failures, c.minibatchSize, c.failureOnly),
    merge: skipped ? 0 : mergeCalls(o.failurePatches, o.successPatches, c.mergeBatchSize),
    // Full-rewrite mode skips the step size and the ranking: the merged rewrite is the candidate.
    lrDecision: skipped || c.lrControlMode !== 'autonomous' || mode === 'full_rewrite' ? 0 : 1,
    rank: skipped || mode === 'full_rewrite' ? 0 : rankCalls(o.mergedEdits, o.budget),
    rewrite: skipped || mode !== 'rewrite' ? 0 : 1,
    gate: skipped ? 0 : o.gateRollouts,
  };
}

export interface EstimateAssumptions {
  /** Expected share of train items the target gets right (sets failures per batch). Default 0.5. */
  trainAccuracy?: number;
  /** Trigger queries per split, when the activation track runs. */
  triggers?: { train: number; val: number; test: number };
  /**
   * Conversations with a simulated user (issue #31): the share of items that have one, and the
   * simulator's calls per conversation (at most its user messages; the mean once measured).
   */
  conversations?: { share: number; simulatorCalls: number };
  /** An agent is trained (a tool loop or an agent CLI): its test tries default to three. */
  agentic?: boolean;
  /** Targets that confirm the starting and best skills on test (issue #42 item 5); an agent's tries default to three. */
  confirm?: readonly { agentic: boolean }[];
  /** Other targets that gate every candidate on validation (issue #42 item 5). */
  gateTargets?: number;
}

/** The target's rollouts of the dataset's items, over their stages. */
const itemRollouts = (counts: StageCounts): number => ITEM_ROLLOUT_STAGES.reduce((n, s) => n + counts[s], 0);

/** The user simulator's calls: every rollout of an item with a simulated user asks it after each answer. */
export function simulatorCalls(counts: StageCounts, conversations: EstimateAssumptions['conversations']): number {
  if (!conversations) return 0;
  return Math.round(itemRollouts(counts) * conversations.share * conversations.simulatorCalls);
}

/**
 * Upper bound on the calls of a whole run: every analyst returns edits, every merged patch
 * needs ranking, every candidate is evaluated on the full validation split (no cache hit, no
 * early stop), and the final skill differs from the best.
 */
export function estimateRunCalls(
  c: RunConfig,
  sizes: { train: number; val: number; test: number },
  a: EstimateAssumptions = {},
): StageCounts {
  const counts = emptyCounts();
  const acc = Math.min(1, Math.max(0, a.trainAccuracy ?? 0.5));
  const N = c.selectionLimit > 0 ? Math.min(c.selectionLimit, sizes.val) : sizes.val;
  const T = c.testLimit > 0 ? Math.min(c.testLimit, sizes.test) : sizes.test;
  const { stepsPerEpoch } = deriveSteps(c, sizes.train);
  const judged = c.scorer.kind === 'judge';
  // The noise probe asks the first validation items a second time.
  counts.baseline = N + Math.min(c.noiseProbe ?? 0, N);
  // pass^k on the learning curve (issue #43): each point's skill tried k − 1 more times on the validation items.
  const curveRepeats = c.curvePassK ? N * (Math.max(2, testTries(c, a.agentic ?? false)) - 1) : 0;
  // The baseline's second tries are the noise probe's where it asked them.
  counts.baseline += Math.max(0, curveRepeats - Math.min(c.noiseProbe ?? 0, N));
  for (let e = 1; e <= c.epochs; e++) {
    for (let s = 0; s < stepsPerEpoch; s++) {
      let items = 0;
      let patchesF = 0;
      let patchesS = 0;
      let fails = 0;
      for (let b = 0; b < c.accumulation; b++) {
        const start = (s * c.accumulation + b) * c.batchSize;
        const n = start < sizes.train ? Math.min(c.batchSize, sizes.train - start) : Math.min(c.batchSize, sizes.train);
        const f = Math.round(n * (1 - acc));
        items += n;
        fails += f;
        patchesF += Math.ceil(f / c.minibatchSize);
        patchesS += c.failureOnly ? 0 : Math.ceil((n - f) / c.minibatchSize);
      }
      counts.rollout += items;
      counts.reflect += patchesF + patchesS;
      counts.merge += mergeCalls(patchesF, patchesS, c.mergeBatchSize);
      const wholeSkill = c.updateMode === 'full_rewrite';
      if (!wholeSkill) counts.rank += 1;
      if (c.updateMode === 'rewrite') counts.rewrite += 1;
      if (c.lrControlMode === 'autonomous' && !wholeSkill) counts.lrDecision += 1;
      if (c.trainCheck) {
        // The check scores the candidate on the batch (it stops early, but at most the batch),
        // and once more after each repair round and each leave-one-out pruning (patch mode only:
        // a rewrite has no edits to repair); the blame scores every edit left out on 5 items.
        const rounds = c.repairEdits && c.updateMode === 'patch' ? Math.max(1, c.repairRounds ?? 1) : 0;
        const blames = c.blameEdits ? rounds : 0;
        counts.trainCheck += items * (1 + rounds + blames) + blames * 5 * 2 * c.editBudget;
        // Riders (issue #43): every edit left out on the gains (at most the failures), then the bundle without them checked.
        if (c.dropRiders && c.updateMode === 'patch') counts.trainCheck += c.editBudget * fails + items;
        counts.repair += rounds;
      }
      counts.gate += N;
      // Stability (issue #43): both skills tried up to k times on the validation items (those passed, at most all).
      if (c.gateStability) counts.gate += 2 * N * (Math.max(2, testTries(c, a.agentic ?? false)) - 1);
      // pass^k on the learning curve (issue #43): the candidate tried k − 1 more times on every validation item.
      counts.gate += curveRepeats;
      if (c.skillAwareReflection && c.updateMode === 'patch') {
        // Reminders change the current skill outside the gate: it is scored again, and a long list is compacted.
        counts.gate += N;
        if (c.appendixConsolidateThreshold > 0) counts.appendix += 1;
      }
    }
    if (e >= 2 && (c.useSlowUpdate || c.useMetaSkill)) {
      counts.slowUpdateRollout += 2 * Math.min(c.slowUpdateSamples, sizes.train);
      if (c.useSlowUpdate) {
        counts.slowUpdate += 1;
        if (c.slowUpdateGated) counts.slowUpdateGate += N;
        counts.slowUpdateGate += curveRepeats;
      }
      if (c.useMetaSkill) counts.metaSkill += 1;
    }
  }
  // Each other target that gates scores the candidate and the skill it meets wherever the gate
  // accepts: every step, the gated slow update, the final promotion (no cache hit, no early stop).
  const gatings = stepsPerEpoch * c.epochs + (c.useSlowUpdate && c.slowUpdateGated ? c.epochs - 1 : 0) + 1;
  counts.gateTargets = (a.gateTargets ?? 0) * 2 * N * gatings;
  if (c.evalTest) {
    counts.finalValidation = N;
    // initial, best and final (at most 3 distinct skills), plus no skill at all for the lift card.
    counts.test = (3 + (c.testNoSkill === false ? 0 : 1)) * T * testTries(c, a.agentic ?? false);
    // Each confirming target scores the starting and the best skill.
    counts.confirm = (a.confirm ?? []).reduce((n, t) => n + 2 * T * testTries(c, t.agentic), 0);
  }
  // Section credit of the best skill (issue #43 item 4): its budget caps every role's calls (a judge's,
  // a simulated user's too), so the budget is the bound, priced as target calls.
  counts.sectionCredit = c.sectionCreditBudget ?? 0;
  const tq = a.triggers;
  if (c.activationTrack && tq) {
    // The starting description on validation once; each epoch: train queries, a rewrite, the
    // candidate on validation, and when the gate rejects it a second rewrite (engine/activation.ts):
    // the first on train when it tied, the second on validation; at the end the starting and the
    // best description on test.
    counts.activationRollout = tq.val + c.epochs * 2 * (tq.train + tq.val) + (c.evalTest ? 2 * tq.test : 0);
    counts.activationRewrite = 2 * c.epochs;
  }
  // A judge reads every rollout of an item (never a trigger query's yes or no).
  if (judged) counts.judge = itemRollouts(counts);
  counts.userSimulator = simulatorCalls(counts, a.conversations);
  return counts;
}

/** Stages only a candidate calls: a step whose analysts propose nothing skips them all. */
const CANDIDATE_STAGES: readonly Stage[] = [
  'merge',
  'lrDecision',
  'rank',
  'rewrite',
  'appendix',
  'trainCheck',
  'repair',
  'gate',
  'gateTargets',
];

/**
 * The low end of a run's calls (issue #33), beside the upper bound of `estimateRunCalls`: every
 * step rolls out and reflects on its batch but no analyst proposes an edit, so nothing is merged,
 * checked or gated, and the test scores the starting skill only (it is the best and the final).
 */
export function lowRunCalls(upper: StageCounts, c: Pick<RunConfig, 'testNoSkill' | 'scorer'>): StageCounts {
  const low = { ...upper };
  for (const s of CANDIDATE_STAGES) low[s] = 0;
  const noSkill = c.testNoSkill === false ? 0 : 1;
  low.test = (upper.test / (3 + noSkill)) * (1 + noSkill);
  // The starting skill is the best: a confirming target scores it alone.
  low.confirm = upper.confirm / 2;
  if (c.scorer.kind === 'judge') {
    low.judge =
      low.baseline +
      low.rollout +
      low.slowUpdateRollout +
      low.slowUpdateGate +
      low.finalValidation +
      low.test +
      low.confirm;
  }
  // The simulator answers in proportion to the rollouts.
  if (upper.userSimulator)
    low.userSimulator = Math.round((upper.userSimulator * itemRollouts(low)) / itemRollouts(upper));
  return low;
}

export function totalCalls(
  counts: Partial<StageCounts>,
  stages: readonly Stage[] = [...TARGET_STAGES, ...OPTIMIZER_STAGES],
): number {
  return stages.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
}
