/**
 * One table per knob (issue #21): every training setting's label, range, control, section and
 * help in deep-learning terms (the help's prose in knob-help.json), in one place. Validation (core/config/run-config.ts), the Train form
 * (ui/train/KnobFields.tsx) and the CLI's config checks all read it, so a range shown is the
 * range enforced. Defaults stay in DEFAULT_RUN_CONFIG beside the type they fill.
 */
import { GATE_METRICS } from '../verdict/gate';
import { GATE_RULES, GATE_RULE_LABELS } from '../verdict/gate-rules';
import { SCHEDULE_KINDS } from './schedules';
import { UPDATE_MODES, UPDATE_MODE_LABELS } from '../skill/update-modes';
import KNOB_HELP from './knob-help.json';

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

/** Every knob but its help text, which lives in knob-help.json (prose is data, as prompts/*.md are). */
const KNOB_ROWS = [
  // Basics: the loop's shape and its learning rate.
  {
    key: 'epochs',
    essential: true,
    label: 'Epochs',
    noun: 'epochs',
    section: 'basics',
    control: int(1, 100),
  },
  {
    key: 'batchSize',
    essential: true,
    label: 'Batch size',
    noun: 'batch size',
    section: 'basics',
    control: int(1, 10_000),
  },
  {
    key: 'accumulation',
    label: 'Accumulation',
    noun: 'accumulation',
    section: 'basics',
    control: int(1, 64),
  },
  {
    key: 'minibatchSize',
    label: 'Minibatch size',
    noun: 'minibatch size',
    section: 'basics',
    control: int(1, 1000),
  },
  {
    key: 'mergeBatchSize',
    label: 'Merge batch size',
    noun: 'merge batch size',
    section: 'basics',
    control: int(2, 1000),
  },
  {
    key: 'updateMode',
    label: 'Update mode',
    noun: 'update mode',
    section: 'basics',
    control: { kind: 'choice', options: choices(UPDATE_MODES, UPDATE_MODE_LABELS) },
  },
  {
    key: 'editBudget',
    essential: true,
    label: 'Edit budget',
    noun: 'edit budget',
    section: 'basics',
    control: int(1, 999),
  },
  {
    key: 'minEditBudget',
    label: 'Minimum edit budget',
    noun: 'minimum edit budget',
    section: 'basics',
    control: int(0, 999),
  },
  {
    key: 'editBudgetSchedule',
    label: 'Edit budget schedule',
    noun: 'edit budget schedule',
    section: 'basics',
    control: { kind: 'choice', options: choices(SCHEDULE_KINDS) },
  },
  {
    key: 'lrControlMode',
    label: 'Edit budget control',
    noun: 'edit budget control',
    section: 'basics',
    control: { kind: 'choice', options: choices(['fixed', 'autonomous'], { fixed: 'fixed schedule' }) },
  },
  // The validation gate: early stopping at every step.
  {
    key: 'useGate',
    label: 'Validation gate',
    noun: 'validation gate',
    section: 'gate',
    control: TOGGLE,
  },
  {
    key: 'gateMetric',
    essential: true,
    label: 'Gate metric',
    noun: 'gate metric',
    section: 'gate',
    control: { kind: 'choice', options: choices(GATE_METRICS) },
  },
  {
    key: 'gateMixedWeight',
    label: 'Mixed gate weight',
    noun: 'mixed gate weight',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 1, step: 0.1 },
    shownWhen: { key: 'gateMetric', is: 'mixed' },
  },
  {
    key: 'gateRule',
    label: 'Gate rule',
    noun: 'gate rule',
    section: 'gate',
    control: { kind: 'choice', options: choices(GATE_RULES, GATE_RULE_LABELS) },
  },
  {
    key: 'gateSignificanceK',
    label: 'Significance k',
    noun: 'significance k',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 10, step: 0.5 },
    shownWhen: { key: 'gateRule', is: 'significance' },
  },
  {
    key: 'gateStability',
    label: 'Stability (pass^k must not fall)',
    noun: 'stability criterion',
    section: 'gate',
    control: TOGGLE,
  },
  {
    key: 'gateConfidence',
    label: 'Gate confidence',
    noun: 'gate confidence',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 0.999, step: 0.05 },
  },
  {
    key: 'earlyStopGate',
    label: 'Early-stopped gate',
    noun: 'early-stopped gate',
    section: 'gate',
    control: TOGGLE,
  },
  {
    key: 'tieBreak',
    label: 'Validation tie-break',
    noun: 'validation tie-break',
    section: 'gate',
    control: TOGGLE,
  },
  {
    key: 'densityWeight',
    label: 'Density weight',
    noun: 'density weight',
    section: 'gate',
    control: { kind: 'number', min: 0, max: 1, step: 0.05 },
  },
  {
    key: 'selectionLimit',
    label: 'Validation limit',
    noun: 'validation limit',
    section: 'gate',
    control: int(0, 1_000_000),
  },
  // Safeguards: credit assignment within a step's bundle of edits.
  {
    key: 'screenEdits',
    label: 'Screen edits before ranking',
    noun: 'edit screening',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'trainCheck',
    label: 'Train-batch check',
    noun: 'train-batch check',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'repairEdits',
    label: 'Repair bundles',
    noun: 'bundle repair',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'repairRounds',
    label: 'Repair rounds',
    noun: 'repair rounds',
    section: 'safeguards',
    control: int(1, 5),
  },
  {
    key: 'blameEdits',
    label: 'Leave-one-out blame',
    noun: 'leave-one-out blame',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'lookAhead',
    label: 'Look one step ahead',
    noun: 'look-ahead',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'dropRiders',
    label: 'Drop riders',
    noun: 'rider check',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'holdSingleEdits',
    label: 'Hold one-trajectory edits',
    noun: 'held edits',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'carryEdits',
    label: 'Carry promising edits',
    noun: 'carried edits',
    section: 'safeguards',
    control: TOGGLE,
  },
  {
    key: 'failureOnly',
    label: 'Failures only',
    noun: 'failures only',
    section: 'safeguards',
    control: TOGGLE,
  },
  // Noisy targets.
  {
    key: 'settleVerdicts',
    label: 'Settle noisy verdicts',
    noun: 'settled verdicts',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'maxSamples',
    label: 'Samples per item',
    noun: 'samples per item',
    section: 'noise',
    control: int(1, 16),
  },
  {
    key: 'askDoubtfulSide',
    label: 'Ask the doubtful side',
    noun: 'doubtful-side repeats',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'noiseProbe',
    label: 'Noise probe',
    noun: 'noise probe items',
    section: 'noise',
    control: int(0, 1000),
  },
  {
    key: 'settledStop',
    label: 'Settled stop after',
    noun: 'settled stop',
    section: 'noise',
    control: int(0, 100),
  },
  {
    key: 'recheckBest',
    label: 'Re-check a new best',
    noun: 'new-best re-check',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'testRepeats',
    label: 'Test repeats',
    noun: 'test repeats',
    section: 'noise',
    control: int(0, 10),
  },
  {
    key: 'curvePassK',
    label: 'pass^k on the learning curve',
    noun: 'learning-curve pass^k',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'testNoSkill',
    label: 'Score no skill on test',
    noun: 'no-skill test',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'evalTest',
    label: 'Evaluate on test at the end',
    noun: 'test evaluation',
    section: 'noise',
    control: TOGGLE,
  },
  {
    key: 'sectionCreditBudget',
    label: 'Section credit at the end (calls)',
    noun: 'section credit budget',
    section: 'noise',
    control: int(0, 1_000_000),
  },
  {
    key: 'testLimit',
    label: 'Test limit',
    noun: 'test limit',
    section: 'noise',
    control: int(0, 1_000_000),
  },
  // Epoch boundary and reflection.
  {
    key: 'useSlowUpdate',
    label: 'Slow update',
    noun: 'slow update',
    section: 'modes',
    control: TOGGLE,
  },
  {
    key: 'slowUpdateGated',
    label: 'Gate the slow update',
    noun: 'gated slow update',
    section: 'modes',
    control: TOGGLE,
  },
  {
    key: 'slowUpdateSamples',
    label: 'Slow-update samples',
    noun: 'slow-update samples',
    section: 'modes',
    control: int(1, 10_000),
  },
  {
    key: 'pairPolicy',
    label: 'Longitudinal pairs',
    noun: 'pair policy',
    section: 'modes',
    control: { kind: 'choice', options: choices(['mixed', 'changed', 'unchanged'], { mixed: 'mixed (all)' }) },
  },
  {
    key: 'useMetaSkill',
    label: 'Meta skill',
    noun: 'meta skill',
    section: 'modes',
    control: TOGGLE,
  },
  {
    key: 'activationTrack',
    presetsKeep: true,
    label: 'Train the description (activation track)',
    noun: 'activation track',
    section: 'modes',
    control: TOGGLE,
  },
  {
    key: 'skillAwareReflection',
    label: 'Skill-aware reflection',
    noun: 'skill-aware reflection',
    section: 'modes',
    control: TOGGLE,
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
  },
  {
    key: 'appendixConsolidateThreshold',
    label: 'Compact reminders above',
    noun: 'appendix consolidation threshold',
    section: 'modes',
    control: int(0, 10_000),
    shownWhen: { key: 'skillAwareReflection', is: true },
  },
  // Steering.
  {
    key: 'reviewEdits',
    label: 'Review edits before the gate',
    noun: 'edit review',
    section: 'steering',
    control: TOGGLE,
  },
  // Calls and budget.
  {
    key: 'targetConcurrency',
    presetsKeep: true,
    label: 'Target concurrency',
    noun: 'target concurrency',
    section: 'resources',
    control: int(1, 256),
  },
  {
    key: 'optimizerConcurrency',
    presetsKeep: true,
    label: 'Optimizer concurrency',
    noun: 'optimizer concurrency',
    section: 'resources',
    control: int(1, 256),
  },
  {
    key: 'maxErrorRate',
    presetsKeep: true,
    label: 'Maximum error rate',
    noun: 'maximum error rate',
    section: 'resources',
    control: { kind: 'number', min: 0, max: 1, step: 0.05 },
  },
  {
    key: 'seed',
    presetsKeep: true,
    essential: true,
    label: 'Seed',
    noun: 'seed',
    section: 'resources',
    control: int(-(2 ** 31), 2 ** 31 - 1),
  },
  {
    key: 'budget',
    presetsKeep: true,
    essential: true,
    label: 'Budget cap (USD)',
    noun: 'budget cap (USD)',
    section: 'resources',
    control: { kind: 'usd' },
  },
  // Agents (issue #30): rollouts that call tools over several turns.
  {
    key: 'maxTurns',
    label: 'Maximum turns',
    noun: 'maximum turns',
    section: 'agent',
    control: int(1, 64),
  },
  {
    key: 'referencesOnDemand',
    label: 'References on demand',
    noun: 'references on demand',
    section: 'agent',
    control: TOGGLE,
  },
  {
    key: 'toolResultChars',
    label: 'Tool result shown to analysts',
    noun: 'tool result length',
    section: 'agent',
    control: int(0, 100_000),
  },
  {
    key: 'reflectOnTrajectories',
    label: 'Reflect on whole trajectories',
    noun: 'reflection on trajectories',
    section: 'agent',
    control: TOGGLE,
  },
] as const satisfies readonly Omit<Knob, 'help'>[];

export type KnobKey = (typeof KNOB_ROWS)[number]['key'];

/** The knob table: each row with its help (a knob without one does not compile). */
export const KNOBS = KNOB_ROWS.map((k) => ({ ...k, help: KNOB_HELP[k.key] }));

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

/** Settings as the knob table reads them, by key: a run config, a part of one, a preset's. */
type Settings = object;

/** A setting's value by its knob's key: the knob table speaks keys, a config is a typed object. */
export function knobValue(settings: Settings, key: string): unknown {
  return (settings as Readonly<Record<string, unknown>>)[key];
}

/** The knobs a preset governs: all but the user's own. */
const governed = (): readonly Knob[] => (KNOBS as readonly Knob[]).filter((k) => !k.presetsKeep);

/**
 * Settings with a preset applied over `base` (the defaults, scaled to the dataset when there is
 * one): every governed knob takes the preset's value or the base's; everything else is kept.
 */
export function withPreset<T extends object>(settings: T, id: PresetId, base: Settings): T & { preset: PresetId } {
  const p = presetById(id)!;
  const out: Record<string, unknown> = { ...settings, preset: id };
  for (const k of governed()) out[k.key] = k.key in p.settings ? p.settings[k.key as KnobKey] : knobValue(base, k.key);
  return out as T & { preset: PresetId };
}

/** The governed knobs (as applied) whose value is not what preset `id` sets over `base`: none when the settings are that preset. */
export function presetDrift(settings: Settings, id: PresetId, base: Settings): Knob[] {
  const want = withPreset({}, id, base);
  return governed().filter((k) => knobShown(k, settings) && knobValue(settings, k.key) !== knobValue(want, k.key));
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
  if (k.control.kind === 'usd')
    return (knobValue(settings, 'budget') as { usd?: unknown } | undefined)?.usd !== undefined;
  const v = knobValue(settings, k.key);
  return v !== undefined && v !== knobValue(base, k.key);
}

/** "Label value" of a knob under these settings, as the form labels it. */
export function knobText(k: Knob, settings: Settings): string {
  return `${k.label} ${formatKnob(k, knobValue(settings, k.key), settings)}`;
}

/** "Label value" of each knob a preset sets, as the form labels them. */
export function presetSets(p: KnobPreset): string[] {
  return (KNOBS as readonly Knob[])
    .filter((k) => k.key in p.settings)
    .map((k) => `${k.label} ${formatKnob(k, p.settings[k.key as KnobKey], {})}`);
}

/** Whether a knob applies under these settings (its `shownWhen` holds). */
export function knobShown(k: Knob, settings: Settings): boolean {
  return !k.shownWhen || knobValue(settings, k.shownWhen.key) === k.shownWhen.is;
}

/** Always in a settings summary, whatever their value: the loop's shape and its gate. */
const SUMMARY_BASICS: readonly string[] = ['epochs', 'batchSize', 'editBudget', 'updateMode', 'gateMetric', 'gateRule'];

function formatKnob(k: Knob, v: unknown, settings: Settings): string {
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
      const usd = (knobValue(settings, 'budget') as { usd?: unknown } | undefined)?.usd;
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
export function settingsSummary(settings: Settings, defaults: Settings): string[] {
  const changed = (k: Knob) => knobDiffers(k, settings, defaults);
  return (KNOBS as readonly Knob[])
    .filter(
      (k) =>
        (SUMMARY_BASICS.includes(k.key) && knobValue(settings, k.key) !== undefined) ||
        (changed(k) && knobShown(k, settings)),
    )
    .map((k) => knobText(k, settings));
}

/** The knob table as markdown, for docs/guide.md (scripts/write-docs.ts writes it; a test keeps it equal). */
export function knobsMarkdown(defaults: Settings): string {
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
        `| ${k.label} | \`${k.key}\` | ${shown(knobValue(defaults, k.key))} | ${cell(range(k))} | ${cell(k.help)}${when} |`,
      );
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}
