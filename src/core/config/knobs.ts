/**
 * One table per knob (issue #21): every training setting's label, range, control, section and
 * help in deep-learning terms, in one place. Validation (core/config/run-config.ts), the Train form
 * (ui/train/KnobFields.tsx) and the CLI's config checks all read it, so a range shown is the
 * range enforced. Defaults stay in DEFAULT_RUN_CONFIG beside the type they fill.
 */
import { GATE_METRICS } from '../verdict/gate';
import { GATE_RULES, GATE_RULE_LABELS } from '../verdict/gate-rules';
import { SCHEDULE_KINDS } from './schedules';
import { UPDATE_MODES, UPDATE_MODE_LABELS } from '../skill/update-modes';

export const KNOB_SECTIONS = {
  basics: 'Basics',
  gate: 'Validation gate',
  safeguards: 'Safeguards',
  noise: 'Noisy targets and the test',
  modes: 'Epoch boundary and reflection',
  agent: 'Agents and tools',
  steering: 'Steering',
  resources: 'Calls and budget',
} as const;
export type KnobSection = keyof typeof KNOB_SECTIONS;

export type KnobControl =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'number'; min: number; max: number; step: number }
  | { kind: 'toggle' }
  | { kind: 'choice'; options: readonly { value: string; label: string }[] }
  /** The run's dollar cap (config.budget.usd): empty means no cap. */
  | { kind: 'usd' };

export interface Knob {
  key: string;
  /** The form's label. */
  label: string;
  /** How validation messages name it. */
  noun: string;
  help: string;
  section: KnobSection;
  control: KnobControl;
  /** Shown (and used) only when another setting has this value, e.g. significance k under its rule. */
  shownWhen?: { key: string; is: string | boolean };
  /** On screen before any section is opened: the few settings a newcomer decides (the rest fold). */
  essential?: true;
  /**
   * The user's own choice, which presets leave as it is: the endpoint's limits, the seed, the
   * budget cap, and whether trigger queries train the description.
   */
  presetsKeep?: true;
}

const choices = (values: readonly string[], labels: Partial<Record<string, string>> = {}) =>
  values.map((value) => ({ value, label: labels[value] ?? value }));
const int = (min: number, max: number): KnobControl => ({ kind: 'int', min, max });
const TOGGLE: KnobControl = { kind: 'toggle' };

export const KNOBS = [
  // Basics: the loop's shape and its learning rate.
  {
    key: 'epochs',
    essential: true,
    label: 'Epochs',
    noun: 'epochs',
    section: 'basics',
    control: int(1, 100),
    help: 'Passes over the train split. 2–4 are usually enough.',
  },
  {
    key: 'batchSize',
    essential: true,
    label: 'Batch size',
    noun: 'batch size',
    section: 'basics',
    control: int(1, 10_000),
    help: 'Train items rolled out per step — the batch whose failures drive one update.',
  },
  {
    key: 'accumulation',
    label: 'Accumulation',
    noun: 'accumulation',
    section: 'basics',
    control: int(1, 64),
    help: 'Batches rolled out and reflected on per update step; their proposals are pooled into one update — gradient accumulation. Steps per epoch shrink by the same factor.',
  },
  {
    key: 'minibatchSize',
    label: 'Minibatch size',
    noun: 'minibatch size',
    section: 'basics',
    control: int(1, 1000),
    help: 'Trajectories per analyst call — how many examples each “gradient” is computed from.',
  },
  {
    key: 'mergeBatchSize',
    label: 'Merge batch size',
    noun: 'merge batch size',
    section: 'basics',
    control: int(2, 1000),
    help: 'Patches merged per call when aggregating the analysts’ proposals (at least 2).',
  },
  {
    key: 'updateMode',
    label: 'Update mode',
    noun: 'update mode',
    section: 'basics',
    control: { kind: 'choice', options: choices(UPDATE_MODES, UPDATE_MODE_LABELS) },
    help: 'How a step changes the skill. Patch: the top-ranked edits are applied as written (the paper’s default, easiest to review). Rewrite: the analysts suggest changes, the top ones (edit budget) go to one extra call that rewrites the whole skill. Full rewrite: every analyst writes a whole new skill and the merges combine them — no budget, the boldest steps. The gate is the same for all; protected blocks are always kept.',
  },
  {
    key: 'editBudget',
    essential: true,
    label: 'Edit budget',
    noun: 'edit budget',
    section: 'basics',
    control: int(1, 999),
    help: 'Most edits applied per step — the learning rate, as a cap on how far one step moves the skill.',
  },
  {
    key: 'minEditBudget',
    label: 'Minimum edit budget',
    noun: 'minimum edit budget',
    section: 'basics',
    control: int(0, 999),
    help: 'The floor the budget decays to.',
  },
  {
    key: 'editBudgetSchedule',
    label: 'Edit budget schedule',
    noun: 'edit budget schedule',
    section: 'basics',
    control: { kind: 'choice', options: choices(SCHEDULE_KINDS) },
    help: 'How the budget changes over training — a learning-rate schedule.',
  },
  {
    key: 'lrControlMode',
    label: 'Edit budget control',
    noun: 'edit budget control',
    section: 'basics',
    control: { kind: 'choice', options: choices(['fixed', 'autonomous'], { fixed: 'fixed schedule' }) },
    help: 'Fixed: the schedule sets each step’s budget. Autonomous: the optimizer decides how many edits to apply, from the evidence of the step (one extra call per step).',
  },
  // The validation gate: early stopping at every step.
  {
    key: 'useGate',
    label: 'Validation gate',
    noun: 'validation gate',
    section: 'gate',
    control: TOGGLE,
    help: 'Keep a step only if validation improves strictly — early stopping at every step. Off: every step is applied (force-accept).',
  },
  {
    key: 'gateMetric',
    essential: true,
    label: 'Gate metric',
    noun: 'gate metric',
    section: 'gate',
    control: { kind: 'choice', options: choices(GATE_METRICS) },
    help: 'What the validation gate compares: exact accuracy (hard), partial credit (soft), or a mix. Soft helps on small validation sets.',
  },
  {
    key: 'gateMixedWeight',
    label: 'Mixed gate weight',
    noun: 'mixed gate weight',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 1, step: 0.1 },
    shownWhen: { key: 'gateMetric', is: 'mixed' },
    help: 'Share of exact accuracy in the mixed gate score; the rest is partial credit.',
  },
  {
    key: 'gateRule',
    label: 'Gate rule',
    noun: 'gate rule',
    section: 'gate',
    control: { kind: 'choice', options: choices(GATE_RULES, GATE_RULE_LABELS) },
    help: 'What a candidate must show besides a higher mean. No regression: no validation item that passed may fail. Significance: the mean gain must exceed k standard errors of the per-item gain — on a few dozen validation items it refuses most real gains at k = 2.',
  },
  {
    key: 'gateSignificanceK',
    label: 'Significance k',
    noun: 'significance k',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 10, step: 0.5 },
    shownWhen: { key: 'gateRule', is: 'significance' },
    help: 'Standard errors the gain must exceed (1 ≈ 84% one-sided, 2 ≈ 98%).',
  },
  {
    key: 'gateConfidence',
    label: 'Gate confidence',
    noun: 'gate confidence',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 0.999, step: 0.05 },
    help: 'How sure the gate must be that a candidate knows more validation items than the current skill, each item’s noise taken out; verdicts stop as soon as they are sure either way, and a noisy target’s lucky flips are not taken for gains. 0: any higher mean (SkillOpt).',
  },
  {
    key: 'earlyStopGate',
    label: 'Early-stopped gate',
    noun: 'early-stopped gate',
    section: 'gate',
    control: TOGGLE,
    help: 'Stop scoring a candidate once it can no longer win. Same decisions, fewer calls.',
  },
  {
    key: 'tieBreak',
    label: 'Validation tie-break',
    noun: 'validation tie-break',
    section: 'gate',
    control: TOGGLE,
    help: 'Accept a validation tie when the train batch improves strictly and no validation item regresses — learns what validation cannot see, without overfitting it.',
  },
  {
    key: 'densityWeight',
    label: 'Density weight',
    noun: 'density weight',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 1, step: 0.05 },
    help: 'Weight of a bonus for denser skills (fewer words per rule) in the gate score — a length penalty; 0 turns it off.',
  },
  {
    key: 'selectionLimit',
    label: 'Validation limit',
    noun: 'validation limit',
    section: 'gate',
    control: int(0, 1_000_000),
    help: 'Use only the first N validation items (0 = all). Fewer calls, noisier gate.',
  },
  // Safeguards: credit assignment within a step's bundle of edits.
  {
    key: 'screenEdits',
    label: 'Screen edits before ranking',
    noun: 'edit screening',
    section: 'safeguards',
    control: TOGGLE,
    help: 'Drop edits that cannot apply or add nothing (unknown op, placeholder, missing target, already stated, duplicate) before ranking — no budget spent on dead gradients.',
  },
  {
    key: 'trainCheck',
    label: 'Train-batch check',
    noun: 'train-batch check',
    section: 'safeguards',
    control: TOGGLE,
    help: 'Score the candidate on the step’s own train batch before validation — a minibatch check; a candidate that is not better skips the gate.',
  },
  {
    key: 'repairEdits',
    label: 'Repair bundles',
    noun: 'bundle repair',
    section: 'safeguards',
    control: TOGGLE,
    help: 'When the check shows items the candidate broke, the optimizer drops the edits to blame and adds what was lost — credit assignment within the bundle.',
  },
  {
    key: 'repairRounds',
    label: 'Repair rounds',
    noun: 'repair rounds',
    section: 'safeguards',
    control: int(1, 5),
    help: 'Repair rounds for a bundle that still breaks train items after its first repair; each may add up to the step’s budget — another backward pass on the residual error.',
  },
  {
    key: 'blameEdits',
    label: 'Leave-one-out blame',
    noun: 'leave-one-out blame',
    section: 'safeguards',
    control: TOGGLE,
    help: 'When a repaired bundle still breaks items, each edit is left out in turn on a few broken and fixed items, and an edit whose absence restores them without losing a gain is dropped — ablation-based credit assignment, no optimizer call.',
  },
  {
    key: 'lookAhead',
    label: 'Look one step ahead',
    noun: 'look-ahead',
    section: 'safeguards',
    control: TOGGLE,
    help: 'A candidate that neither fixes nor breaks a train item (a bad rule replaced, the next rule not in yet) takes the next step’s edits now, and goes on if the train check finds it better: a plateau crossed, not a locked start.',
  },
  {
    key: 'carryEdits',
    label: 'Carry promising edits',
    noun: 'carried edits',
    section: 'safeguards',
    control: TOGGLE,
    help: 'A rejected candidate that was better on train keeps its edits for the next step — momentum for edits that only pay together. Off by default: it did not raise held-out accuracy in our benchmark.',
  },
  {
    key: 'failureOnly',
    label: 'Failures only',
    noun: 'failures only',
    section: 'safeguards',
    control: TOGGLE,
    help: 'Learn from failures only; skip the success analysts.',
  },
  // Noisy targets.
  {
    key: 'settleVerdicts',
    label: 'Settle noisy verdicts',
    noun: 'settled verdicts',
    section: 'noise',
    control: TOGGLE,
    help: 'Noise-aware verdicts: where the current skill and the candidate disagree on an item, the target is asked again (the skill in doubt, or both) until one answer leads by enough votes — like averaging several forward passes of a stochastic network before comparing two checkpoints. How many votes follows the noise the run measures; a target that always answers the same is only spot-checked.',
  },
  {
    key: 'maxSamples',
    label: 'Samples per item',
    noun: 'samples per item',
    section: 'noise',
    control: int(1, 16),
    help: 'Most answers per skill and item when settling a verdict. More: surer verdicts on a noisy target, more calls.',
  },
  {
    key: 'askDoubtfulSide',
    label: 'Ask the doubtful side',
    noun: 'doubtful-side repeats',
    section: 'noise',
    control: TOGGLE,
    help: 'Settling an item, ask again only the skill whose answers are in doubt (beside a fail, a pass is rarely a guess); the other once those run out. Off: both skills, more calls.',
  },
  {
    key: 'noiseProbe',
    label: 'Noise probe',
    noun: 'noise probe items',
    section: 'noise',
    control: int(0, 1000),
    help: 'Validation items the baseline asks twice, to measure the target’s noise before the first step — a calibration batch. 0: learn it from the verdicts only.',
  },
  {
    key: 'recheckBest',
    label: 'Re-check a new best',
    noun: 'new-best re-check',
    section: 'noise',
    control: TOGGLE,
    help: 'Noisy targets: a would-be new best is scored again on fresh answers and must still win — against the winner’s curse (the best of many noisy comparisons looks better than it is). Off by default: it did not raise held-out accuracy in our benchmark, at about 20 % more target calls on a noisy target.',
  },
  {
    key: 'testRepeats',
    label: 'Test repeats',
    noun: 'test repeats',
    section: 'noise',
    control: int(1, 10),
    help: 'Answers per test item and skill at the end: more give a tighter lift interval on a noisy target, like evaluating with several seeds.',
  },
  {
    key: 'testNoSkill',
    label: 'Score no skill on test',
    noun: 'no-skill test',
    section: 'noise',
    control: TOGGLE,
    help: 'At the end, also score the test split with no skill at all, so the lift card shows what the skill adds (one more pass over the test items).',
  },
  {
    key: 'evalTest',
    label: 'Evaluate on test at the end',
    noun: 'test evaluation',
    section: 'noise',
    control: TOGGLE,
    help: 'Score the starting, best and final skills on the held-out test split when training ends — the only honest figure of the lift.',
  },
  {
    key: 'testLimit',
    label: 'Test limit',
    noun: 'test limit',
    section: 'noise',
    control: int(0, 1_000_000),
    help: 'Use only the first N test items at the end (0 = all). Fewer calls, a wider lift interval.',
  },
  // Epoch boundary and reflection.
  {
    key: 'useSlowUpdate',
    label: 'Slow update',
    noun: 'slow update',
    section: 'modes',
    control: TOGGLE,
    help: 'At each epoch’s end, compare the skill before and after the epoch and write guidance into a protected block — momentum.',
  },
  {
    key: 'slowUpdateGated',
    label: 'Gate the slow update',
    noun: 'gated slow update',
    section: 'modes',
    control: TOGGLE,
    help: 'The epoch guidance must pass the validation gate too (paper setting).',
  },
  {
    key: 'slowUpdateSamples',
    label: 'Slow-update samples',
    noun: 'slow-update samples',
    section: 'modes',
    control: int(1, 10_000),
    help: 'Train items the epoch review compares before and after the epoch.',
  },
  {
    key: 'pairPolicy',
    label: 'Longitudinal pairs',
    noun: 'pair policy',
    section: 'modes',
    control: { kind: 'choice', options: choices(['mixed', 'changed', 'unchanged'], { mixed: 'mixed (all)' }) },
    help: 'Which before/after pairs the epoch review sees: all, only changed ones (topped up), or only unchanged ones.',
  },
  {
    key: 'useMetaSkill',
    label: 'Meta skill',
    noun: 'meta skill',
    section: 'modes',
    control: TOGGLE,
    help: 'At each epoch’s end, the optimizer writes advice to itself about which edits helped — a memory for the next epoch; never shown to the target.',
  },
  {
    key: 'activationTrack',
    presetsKeep: true,
    label: 'Train the description (activation track)',
    noun: 'activation track',
    section: 'modes',
    control: TOGGLE,
    help: 'A second track at each epoch’s end: the SKILL.md description — all an agent reads when it decides to load the skill — is rewritten from the trigger queries it fired wrongly on, and kept only if the target decides better on held-out queries. Needs trigger queries (Skill screen).',
  },
  {
    key: 'skillAwareReflection',
    label: 'Skill-aware reflection',
    noun: 'skill-aware reflection',
    section: 'modes',
    control: TOGGLE,
    help: 'Analysts tell a missing or wrong rule (fixed by an edit) from a rule the model knew but did not follow (a one-line reminder in the protected Execution Notes Appendix). Reminders join the skill outside the gate, so the changed skill is scored again on validation (one more validation pass when reminders change it). Patch mode only.',
  },
  {
    key: 'appendixSource',
    label: 'Reminders from',
    noun: 'appendix source',
    section: 'modes',
    shownWhen: { key: 'skillAwareReflection', is: true },
    control: {
      kind: 'choice',
      options: choices(['failure_only', 'both'], {
        failure_only: 'failure analysts only',
        both: 'failure and success analysts',
      }),
    },
    help: 'Failure analysts only is the safe choice: broad reminders from successes hurt small models in SkillOpt’s experiments.',
  },
  {
    key: 'appendixConsolidateThreshold',
    label: 'Compact reminders above',
    noun: 'appendix consolidation threshold',
    section: 'modes',
    control: int(0, 10_000),
    shownWhen: { key: 'skillAwareReflection', is: true },
    help: 'When the appendix holds more reminders than this, one optimizer call compacts them (kept only if shorter). 0 never compacts.',
  },
  // Steering.
  {
    key: 'reviewEdits',
    label: 'Review edits before the gate',
    noun: 'edit review',
    section: 'steering',
    control: TOGGLE,
    help: 'Steering: each step pauses with its proposed edits (or rewrite); you approve or veto each, see the candidate they make, and only what you approve meets the gate. The pause survives closing the tab. Off: the loop runs on its own.',
  },
  // Calls and budget.
  {
    key: 'targetConcurrency',
    presetsKeep: true,
    label: 'Target concurrency',
    noun: 'target concurrency',
    section: 'resources',
    control: int(1, 256),
    help: 'Target calls in flight at once. Lower it if the endpoint rate-limits.',
  },
  {
    key: 'optimizerConcurrency',
    presetsKeep: true,
    label: 'Optimizer concurrency',
    noun: 'optimizer concurrency',
    section: 'resources',
    control: int(1, 256),
    help: 'Optimizer calls in flight at once.',
  },
  {
    key: 'maxErrorRate',
    presetsKeep: true,
    label: 'Maximum error rate',
    noun: 'maximum error rate',
    section: 'resources',
    control: { kind: 'number', min: 0, max: 1, step: 0.05 },
    help: 'A stage whose share of failed calls passes this pauses the run (errors are never scored as wrong answers).',
  },
  {
    key: 'seed',
    presetsKeep: true,
    essential: true,
    label: 'Seed',
    noun: 'seed',
    section: 'resources',
    control: int(-(2 ** 31), 2 ** 31 - 1),
    help: 'All shuffles derive from it: the same seed, data and endpoint give the same run.',
  },
  {
    key: 'budget',
    presetsKeep: true,
    essential: true,
    label: 'Budget cap (USD)',
    noun: 'budget cap (USD)',
    section: 'resources',
    control: { kind: 'usd' },
    help: 'The run pauses before it would spend more than this (needs prices on Connect).',
  },
  // Agents (issue #30): rollouts that call tools over several turns.
  {
    key: 'maxTurns',
    label: 'Maximum turns',
    noun: 'maximum turns',
    section: 'agent',
    control: int(1, 64),
    help: 'Model turns an agent may take on one item when the run offers tools; an agent still calling tools after this many fails the item with “ran out of turns”. Each turn is one target call.',
  },
  {
    key: 'referencesOnDemand',
    label: 'References on demand',
    noun: 'references on demand',
    section: 'agent',
    control: TOGGLE,
    help: 'With a skill package: the agent sees SKILL.md and the list of its files, and reads a reference only when it calls read_file — as agent harnesses load skills. Off: every reference is pasted into the prompt.',
  },
  {
    key: 'toolResultChars',
    label: 'Tool result shown to analysts',
    noun: 'tool result length',
    section: 'agent',
    control: int(0, 100_000),
    help: 'Characters of each tool result the analysts read in a trajectory (the agent itself always sees the whole result).',
  },
  {
    key: 'reflectOnTrajectories',
    label: 'Reflect on whole trajectories',
    noun: 'reflection on trajectories',
    section: 'agent',
    control: TOGGLE,
    help: 'Analysts read every turn, tool call, argument and result, the references read and the turn that failed. Off: only the final answer, as a single-call run shows it (an ablation).',
  },
] as const satisfies readonly Knob[];

export type KnobKey = (typeof KNOBS)[number]['key'];

/** A knob's value as a preset sets it. */
export type KnobValue = number | string | boolean;

export interface KnobPreset {
  /** What a config names it by (`"preset": "careful"`). */
  id: string;
  label: string;
  /** The situation it is for, in a sentence a newcomer understands. */
  situation: string;
  /** Its knobs away from the defaults; every other knob it governs goes back to its default. */
  settings: Partial<Record<KnobKey, KnobValue>>;
}

/**
 * Presets by situation (issue #33): a newcomer picks the situation, not the knobs. A preset puts
 * every knob back to its default — but the user's own ones (`presetsKeep`) — then sets its own;
 * one more preset is one more row here.
 */
export const KNOB_PRESETS = [
  {
    id: 'quick-look',
    label: 'Quick look',
    situation: 'A first, cheap look at whether training helps: one pass over the data, lighter checks, a shorter test.',
    // Not a smaller batch: more steps per epoch, and each step's gate scores the whole validation split.
    settings: { epochs: 1, repairRounds: 1, noiseProbe: 8, testNoSkill: false },
  },
  {
    id: 'standard',
    label: 'Standard',
    situation: 'The method’s defaults: a few passes over the data, the gate at every step, safeguards on.',
    settings: {},
  },
  {
    id: 'noisy',
    label: 'Noisy or reasoning target',
    situation:
      'Answers vary when asked again (temperature above 0, reasoning models): more repeats settle each verdict.',
    settings: { settleVerdicts: true, maxSamples: 5, noiseProbe: 32, testRepeats: 3 },
  },
  {
    id: 'careful',
    label: 'Careful',
    situation: 'Small steps you approve before the gate; no validation item that passed may fail.',
    settings: { reviewEdits: true, gateRule: 'no_regression', editBudget: 2, minEditBudget: 1 },
  },
  {
    id: 'agent',
    label: 'Agent with tools',
    situation: 'An agent calling tools over several turns: references read when needed, whole trajectories analysed.',
    settings: { referencesOnDemand: true, reflectOnTrajectories: true, toolResultChars: 1000 },
  },
] as const satisfies readonly KnobPreset[];

export type PresetId = (typeof KNOB_PRESETS)[number]['id'];
export const DEFAULT_PRESET: PresetId = 'standard';

export function presetById(id: unknown): KnobPreset | undefined {
  return (KNOB_PRESETS as readonly KnobPreset[]).find((p) => p.id === id);
}

type Settings = Readonly<Record<string, unknown>>;

/** The knobs a preset governs: all but the user's own. */
const governed = (): readonly Knob[] => (KNOBS as readonly Knob[]).filter((k) => !k.presetsKeep);

/**
 * Settings with a preset applied over `base` (the defaults, scaled to the dataset when there is
 * one): every governed knob takes the preset's value or the base's; everything else is kept.
 */
export function withPreset<T extends object>(settings: T, id: PresetId, base: Settings): T & { preset: PresetId } {
  const p = presetById(id)!;
  const out: Record<string, unknown> = { ...settings, preset: id };
  for (const k of governed()) out[k.key] = k.key in p.settings ? p.settings[k.key as KnobKey] : base[k.key];
  return out as T & { preset: PresetId };
}

/** The governed knobs (as applied) whose value is not what preset `id` sets over `base`: none when the settings are that preset. */
export function presetDrift(settings: Settings, id: PresetId, base: Settings): Knob[] {
  const want = withPreset({}, id, base) as Settings;
  return governed().filter((k) => knobShown(k, settings) && settings[k.key] !== want[k.key]);
}

/**
 * A preset follows the data: settings that were preset `id` over the defaults `before` become that
 * preset over `after` when the defaults change — the dataset's size arrived after the choice was
 * made, or another dataset was chosen — rather than reading as Custom. Null when they had left the
 * preset (the person's own changes stay) or already are it.
 */
export function presetFollowingData<T extends { preset?: unknown }>(
  settings: T,
  before: Settings,
  after: Settings,
): (T & { preset: PresetId }) | null {
  const id = (presetById(settings.preset) ?? presetById(DEFAULT_PRESET)!).id as PresetId;
  const values = settings as unknown as Settings;
  if (presetDrift(values, id, before).length || !presetDrift(values, id, after).length) return null;
  return withPreset(settings, id, after);
}

/** Whether a knob is set away from its default in `base` (the budget cap: whether one is set at all). */
export function knobDiffers(k: Knob, settings: Settings, base: Settings): boolean {
  if (k.control.kind === 'usd') return (settings.budget as { usd?: unknown } | undefined)?.usd !== undefined;
  return settings[k.key] !== undefined && settings[k.key] !== base[k.key];
}

/** "Label value" of a knob under these settings, as the form labels it. */
export function knobText(k: Knob, settings: Settings): string {
  return `${k.label} ${formatKnob(k, settings[k.key], settings)}`;
}

/** "Label value" of each knob a preset sets, as the form labels them. */
export function presetSets(p: KnobPreset): string[] {
  return (KNOBS as readonly Knob[])
    .filter((k) => k.key in p.settings)
    .map((k) => `${k.label} ${formatKnob(k, p.settings[k.key as KnobKey], {})}`);
}

/** Whether a knob applies under these settings (its `shownWhen` holds). */
export function knobShown(k: Knob, settings: Readonly<Record<string, unknown>>): boolean {
  return !k.shownWhen || settings[k.shownWhen.key] === k.shownWhen.is;
}

/** Always in a settings summary, whatever their value: the loop's shape and its gate. */
const SUMMARY_BASICS: readonly string[] = ['epochs', 'batchSize', 'editBudget', 'updateMode', 'gateMetric', 'gateRule'];

function formatKnob(k: Knob, v: unknown, settings: Readonly<Record<string, unknown>>): string {
  const c = k.control;
  switch (c.kind) {
    case 'int':
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? String(v) : '—';
    case 'toggle':
      return v ? 'on' : 'off';
    case 'choice':
      return c.options.find((o) => o.value === v)?.label ?? '—';
    case 'usd': {
      const usd = (settings.budget as { usd?: unknown } | undefined)?.usd;
      return typeof usd === 'number' && Number.isFinite(usd) ? `$${usd}` : 'none';
    }
  }
}

/** Whether a knob's name, key, help or section holds every word of a search (the Train screen's). */
export function knobMatches(k: Knob, query: string): boolean {
  const text = `${k.label} ${k.key} ${k.help} ${KNOB_SECTIONS[k.section]}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

/**
 * A run's settings in one line's parts, for its report: the basics, then every knob set away from
 * its default ("Label value"), as the Train form labels them. Plain text: the caller escapes it.
 */
export function settingsSummary(
  settings: Readonly<Record<string, unknown>>,
  defaults: Readonly<Record<string, unknown>>,
): string[] {
  const changed = (k: Knob) => knobDiffers(k, settings, defaults);
  return (KNOBS as readonly Knob[])
    .filter(
      (k) =>
        (SUMMARY_BASICS.includes(k.key) && settings[k.key] !== undefined) || (changed(k) && knobShown(k, settings)),
    )
    .map((k) => `${k.label} ${formatKnob(k, settings[k.key], settings)}`);
}

/** The knob table as markdown, for docs/guide.md (scripts/write-docs.ts writes it; a test keeps it equal). */
export function knobsMarkdown(defaults: Readonly<Record<string, unknown>>): string {
  const range = (k: Knob): string => {
    const c = k.control;
    if (c.kind === 'int' || c.kind === 'number') return `${c.min} – ${c.max}`;
    if (c.kind === 'choice') return c.options.map((o) => `\`${o.value}\``).join(', ');
    if (c.kind === 'toggle') return 'on / off';
    return 'USD, empty for none';
  };
  const shown = (v: unknown) =>
    v === undefined
      ? '—'
      : typeof v === 'boolean'
        ? v
          ? 'on'
          : 'off'
        : typeof v === 'object'
          ? 'none'
          : `\`${String(v)}\``;
  const cell = (t: string) => t.replace(/\|/g, '\\|');
  const names = (keys: readonly Knob[], of: (k: Knob) => string) =>
    keys
      .map(of)
      .join(', ')
      .replace(/, ([^,]*)$/, ' and $1');
  const out: string[] = [
    '### Presets',
    '',
    'Pick a preset by situation on the Train screen, or name it in the runner’s config ' +
      '(`"run": { "preset": "careful" }`: settings given beside it win). A preset puts every setting back to ' +
      `its default — but the ${names(
        (KNOBS as readonly Knob[]).filter((k) => k.presetsKeep),
        (k) => k.noun,
      )}, which stay yours — ` +
      'then sets its own. Changing a setting afterwards makes the settings *Custom (based on …)*.',
    '',
    '| preset | `preset` | for | sets |',
    '| --- | --- | --- | --- |',
    ...(KNOB_PRESETS as readonly KnobPreset[]).map(
      (p) =>
        `| ${p.label} | \`${p.id}\` | ${cell(p.situation)} | ${cell(presetSets(p).join('; ') || 'the defaults')} |`,
    ),
    '',
    `On screen from the start: ${names(
      (KNOBS as readonly Knob[]).filter((k) => k.essential),
      (k) => k.label,
    )}; ` +
      'every other setting is folded under its section, whose header counts the settings set away from their ' +
      'default, and the search box finds any setting by name or help.',
    '',
  ];
  for (const [section, title] of Object.entries(KNOB_SECTIONS)) {
    out.push(
      `### ${title}`,
      '',
      '| setting | key | default | range | what it does |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const k of (KNOBS as readonly Knob[]).filter((x) => x.section === section)) {
      const when = k.shownWhen ? ` Only when \`${k.shownWhen.key}\` is \`${String(k.shownWhen.is)}\`.` : '';
      out.push(
        `| ${k.label} | \`${k.key}\` | ${shown(defaults[k.key])} | ${cell(range(k))} | ${cell(k.help)}${when} |`,
      );
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}
