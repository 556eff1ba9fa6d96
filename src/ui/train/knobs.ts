/** Each training knob with its one-line explanation in deep-learning terms. */
export const KNOB_HELP = {
  epochs: 'Passes over the train split. 2–4 are usually enough.',
  batchSize: 'Train items rolled out per step — the batch whose failures drive one update.',
  accumulation: 'Batches rolled out and reflected on per update step; their proposals are pooled into one update — gradient accumulation. Steps per epoch shrink by the same factor.',
  minibatchSize: 'Trajectories per analyst call — how many examples each “gradient” is computed from.',
  mergeBatchSize: 'Patches merged per call when aggregating the analysts’ proposals (at least 2).',
  updateMode:
    'How a step changes the skill. Patch: the top-ranked edits are applied as written (the paper’s default, easiest to review). Rewrite: the analysts suggest changes, the top ones (edit budget) go to one extra call that rewrites the whole skill. Full rewrite: every analyst writes a whole new skill and the merges combine them — no budget, the boldest steps. The gate is the same for all; protected blocks are always kept.',
  editBudget: 'Most edits applied per step — the learning rate, as a cap on how far one step moves the skill.',
  minEditBudget: 'The floor the budget decays to.',
  schedule: 'How the budget changes over training — a learning-rate schedule.',
  gateMetric: 'What the validation gate compares: exact accuracy (hard), partial credit (soft), or a mix. Soft helps on small validation sets.',
  gateRule:
    'What a candidate must show besides a higher mean. No regression: no validation item that passed may fail. Significance: the mean gain must exceed k standard errors of the per-item gain — on a few dozen validation items it refuses most real gains at k = 2.',
  gateSignificanceK: 'Standard errors the gain must exceed (1 ≈ 84% one-sided, 2 ≈ 98%).',
  useGate: 'Keep a step only if validation improves strictly — early stopping at every step. Off: every step is applied (force-accept).',
  earlyStop: 'Stop scoring a candidate once it can no longer win. Same decisions, fewer calls.',
  slowUpdate: 'At each epoch’s end, compare the skill before and after the epoch and write guidance into a protected block — momentum.',
  slowUpdateGated: 'The epoch guidance must pass the validation gate too (paper setting).',
  metaSkill: 'At each epoch’s end, the optimizer writes advice to itself about which edits helped — a memory for the next epoch; never shown to the target.',
  screenEdits: 'Drop edits that cannot apply or add nothing (unknown op, placeholder, missing target, already stated, duplicate) before ranking — no budget spent on dead gradients.',
  trainCheck: 'Score the candidate on the step’s own train batch before validation — a minibatch check; a candidate that is not better skips the gate.',
  repairEdits: 'When the check shows items the candidate broke, the optimizer drops the edits to blame and adds what was lost — credit assignment within the bundle.',
  carryEdits: 'A rejected candidate that was better on train keeps its edits for the next step — momentum for edits that only pay together. Off by default: it did not raise held-out accuracy in our benchmark.',
  tieBreak: 'Accept a validation tie when the train batch improves strictly and no validation item regresses — learns what validation cannot see, without overfitting it.',
  settleVerdicts:
    'Noise-aware verdicts: where the current skill and the candidate disagree on an item, the target is asked again (both skills) until one answer leads by enough votes — like averaging several forward passes of a stochastic network before comparing two checkpoints. How many votes follows the noise the run measures; a target that always answers the same is only spot-checked.',
  maxSamples: 'Most answers per skill and item when settling a verdict. More: surer verdicts on a noisy target, more calls.',
  noiseProbe: 'Validation items the baseline asks twice, to measure the target’s noise before the first step — a calibration batch. 0: learn it from the verdicts only.',
  repairRounds: 'Repair rounds for a bundle that still breaks train items after its first repair; each may add up to the step’s budget — another backward pass on the residual error.',
  blameEdits: 'When a repaired bundle still breaks items, each edit is left out in turn on a few broken and fixed items, and an edit whose absence restores them without losing a gain is dropped — ablation-based credit assignment, no optimizer call.',
  recheckBest:
    'Noisy targets: a would-be new best is scored again on fresh answers and must still win — against the winner’s curse (the best of many noisy comparisons looks better than it is). Off by default: it did not raise held-out accuracy in our benchmark, at about 20 % more target calls on a noisy target.',
  testRepeats: 'Answers per test item and skill at the end: more give a tighter lift interval on a noisy target, like evaluating with several seeds.',
  reviewEdits:
    'Steering: each step pauses with its proposed edits (or rewrite); you approve or veto each, see the candidate they make, and only what you approve meets the gate. The pause survives closing the tab. Off: the loop runs on its own.',
  testNoSkill: 'At the end, also score the test split with no skill at all, so the lift card shows what the skill adds (one more pass over the test items).',
  skillAwareReflection:
    'Analysts tell a missing or wrong rule (fixed by an edit) from a rule the model knew but did not follow (a one-line reminder in the protected Execution Notes Appendix). Reminders join the skill outside the gate, so the changed skill is scored again on validation (one more validation pass when reminders change it). Patch mode only.',
  appendixSource: 'Failure analysts only is the safe choice: broad reminders from successes hurt small models in SkillOpt’s experiments.',
  appendixConsolidateThreshold: 'When the appendix holds more reminders than this, one optimizer call compacts them (kept only if shorter). 0 never compacts.',
  failureOnly: 'Learn from failures only; skip the success analysts.',
  targetConcurrency: 'Target calls in flight at once. Lower it if the endpoint rate-limits.',
  optimizerConcurrency: 'Optimizer calls in flight at once.',
  seed: 'All shuffles derive from it: the same seed, data and endpoint give the same run.',
  selectionLimit: 'Use only the first N validation items (0 = all). Fewer calls, noisier gate.',
  budget: 'The run pauses before it would spend more than this (needs prices on Connect).',
} as const;
