/**
 * Generated worlds (issue #40): rule worlds whose every parameter is drawn from a seed, so learning
 * is measured on worlds nobody tuned for. A world is the hard world's kind (rule-world.ts): families
 * of specimens, each answered right only when the skill states its rule; some families need a second
 * rule (a grade mark) in a pair; the start may hold a harmful rule and an over-broad rule that is
 * right for the families it carries and overrides every other family's rule; some families have no
 * validation items. Drawn per world: the families, which are paired, which the start knows (its
 * accuracy 0–0.6), the target's misses (0–25 %) and guesses (0–12 %) — a quarter of the worlds keep a
 * deterministic target —, the split sizes (validation 8–40), and the optimizer: how often it slips,
 * how often an analyst proposes nothing useful (rewordings, or nothing) or one fix where it read
 * several, how often a repair slips in a bad rule or restores nothing a replaced rule carried. An A/A
 * world (a fifth of them) has an optimizer that only rewords: nothing to learn,
 * every accept false. Pure: the same seed gives the same world.
 */
import { SeededRandom } from '../../src/core/basics/random';
import {
  BROAD_RULES,
  HARMFUL_RULE,
  TOPICS,
  gradeText,
  hardExpectedAnswer,
  hardTargetAnswer,
  ruleText,
  topicCode,
  type HardWorldItem,
  type HardWorldSpec,
} from './rule-world';

/** What a generated world draws, besides its spec. */
export interface GeneratedWorld {
  /** `dev-7`, `fresh-12`: its set and place in it. */
  name: string;
  seed: number;
  /** Nothing to learn: the optimizer only rewords (every accept is a false one). */
  aa: boolean;
  spec: HardWorldSpec;
  sizes: { train: number; val: number; test: number };
  /** The target's misses and guesses; null: deterministic. */
  targetNoise: { miss: number; guess: number } | null;
  /** How often the simulated optimizer slips (hard-optimizer.ts; 1 = the hard world's rates). */
  slip: number;
  /** Share of analyst calls that propose nothing useful (a rewording or nothing). */
  useless: number;
  /** Share of repairs that slip in a harmful or broad rule. */
  repairSlip: number;
  /** Share of analyst calls that propose one fix only, however many failures they read. */
  narrow: number;
  /** Share of repairs that restore nothing (they only drop edits): what a replaced rule carried stays lost. */
  repairBlind: number;
  /** The start: the families whose rules it states, a harmful rule, an over-broad rule (its digit) and the families it carries. */
  start: { known: string[]; harmful: boolean; broad: number | null; carried: string[] };
}

/** Ranges the generator draws from (issue #40). */
export const RANGES = {
  families: [4, 10],
  miss: [0, 0.25],
  guess: [0, 0.12],
  startAccuracy: [0, 0.6],
  val: [8, 40],
  train: [40, 64],
  test: 48,
  slip: [0, 2],
  useless: [0, 0.5],
  repairSlip: [0, 0.4],
  narrow: [0, 0.8],
  repairBlind: [0, 1],
} as const;

/** The least an A/A world's start knows, without its broad rule (a share of the test items). */
const AA_START = 0.2;

/** Shares of worlds with each feature. */
const SHARES = {
  aa: 0.2,
  deterministic: 0.25,
  harmful: 0.35,
  broad: 0.4,
  paired: 0.3,
  oneCause: 0.5,
  blind: 0.12,
  useless: 0.5,
  narrow: 0.4,
  repairBlind: 0.4,
};

const GRADE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** The digits the over-broad rules write (BROAD_RULES), and the families each is right for. */
const broadDigit = (topic: string) => Number(topicCode(topic).slice(-1));

/** The starting skill: the rules of the known families (with their grade marks), then the harmful and broad rules. */
export function startingSkill(spec: Pick<HardWorldSpec, 'grades'>, start: GeneratedWorld['start']): string {
  const lines = start.known.flatMap((t) => [ruleText(t), ...(spec.grades[t] ? [gradeText(t, spec.grades)] : [])]);
  if (start.harmful) lines.push(HARMFUL_RULE);
  const broad = BROAD_RULES.find((b) => b.digit === start.broad);
  if (broad) lines.push(broad.text);
  return `# Specimen codes\n\nAnswer with the specimen code.\n${lines.length ? `\n${lines.join('\n')}\n` : ''}`;
}

/** A skill that knows everything the world asks: every family's rule and grade mark, no harmful or broad rule. */
export function solvedSkill(spec: Pick<HardWorldSpec, 'topics' | 'grades'>): string {
  return startingSkill(spec, { known: [...spec.topics], harmful: false, broad: null, carried: [] });
}

/**
 * The world's items: test and train cycle through every family, validation through the families it
 * sees (none of the validation-blind ones). Specimen numbers are unique across the world.
 */
export function generatedItems(w: Pick<GeneratedWorld, 'spec' | 'sizes'>): HardWorldItem[] {
  const { topics, blind, grades } = w.spec;
  const seen = topics.filter((t) => !blind.includes(t));
  let next = 0;
  const items: HardWorldItem[] = [];
  const add = (split: HardWorldItem['split'], count: number, families: readonly string[]) => {
    for (let i = 0; i < count; i++) {
      const topic = families[i % families.length];
      // Odd and even specimens alternate within every family (the harmful rule breaks half of each).
      const specimen = 100 + 2 * next++ + (Math.floor(i / families.length) % 2);
      items.push({
        id: `g${String(items.length).padStart(3, '0')}`,
        question: `What is the ${topic} code for specimen ${specimen}?`,
        answers: [hardExpectedAnswer(topic, specimen, grades)],
        split,
      });
    }
  };
  add('train', w.sizes.train, topics);
  add('val', w.sizes.val, seen);
  add('test', w.sizes.test, topics);
  return items;
}

/** A skill's accuracy on a world's split when the target does not slip (the rollout prompt is not needed: only its rules count). */
export function worldAccuracy(
  skill: string,
  w: Pick<GeneratedWorld, 'spec' | 'sizes'>,
  split: 'train' | 'val' | 'test',
): number {
  return accuracyOn(
    skill,
    generatedItems(w).filter((i) => i.split === split),
    w.spec,
  );
}

function accuracyOn(skill: string, items: readonly HardWorldItem[], spec: HardWorldSpec): number {
  const right = items.filter((i) => hardTargetAnswer(skill, i.question, spec) === i.answers[0]).length;
  return items.length ? right / items.length : 0;
}

const uniform = (rng: SeededRandom, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * rng.nextFloat();
const integer = (rng: SeededRandom, [lo, hi]: readonly [number, number]) => lo + rng.below(hi - lo + 1);
const chance = (rng: SeededRandom, p: number) => rng.nextFloat() < p;
const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** The world a seed draws. */
export function generateWorld(seed: number, name = `world-${seed}`): GeneratedWorld {
  const rng = new SeededRandom(seed);
  const aa = chance(rng, SHARES.aa);
  const n = integer(rng, RANGES.families);
  const pool = [...TOPICS];
  const topics: string[] = [];
  while (topics.length < n) topics.push(pool.splice(rng.below(pool.length), 1)[0]);
  // An over-broad start: a rule right for the families whose code ends in its digit — one to three
  // of them, at most half the world's (it overrides every other family's rule).
  let broad: number | null = null;
  if (chance(rng, SHARES.broad)) {
    const digit = BROAD_RULES[rng.below(BROAD_RULES.length)].digit;
    broad = digit;
    const fits = (t: string) => broadDigit(t) === digit;
    const all = TOPICS.filter(fits);
    const carry = Math.min(1 + rng.below(all.length), Math.floor(n / 2));
    const chosen = shuffle(rng, all).slice(0, carry);
    const others = shuffle(
      rng,
      topics.filter((t) => !fits(t)),
    );
    const spare = shuffle(
      rng,
      TOPICS.filter((t) => !fits(t) && !topics.includes(t)),
    );
    const rest = [...others, ...spare].slice(0, n - carry);
    topics.splice(0, topics.length, ...shuffle(rng, [...chosen, ...rest]));
  }
  // The broad rule carries its families fully: their prefix right, no grade mark missing.
  const grades: Record<string, string> = {};
  for (const t of topics)
    if (chance(rng, SHARES.paired) && broadDigit(t) !== broad)
      grades[t] = GRADE_LETTERS[rng.below(GRADE_LETTERS.length)];
  const oneCause = Object.keys(grades).length > 0 && chance(rng, SHARES.oneCause);
  // At most two validation-blind families, and validation always sees two families at least.
  const blind = topics.filter(() => chance(rng, SHARES.blind)).slice(0, Math.min(2, n - 2));
  const harmful = chance(rng, SHARES.harmful);
  const carried = broad === null ? [] : topics.filter((t) => broadDigit(t) === broad && !grades[t]);
  const sizes = { train: integer(rng, RANGES.train), val: integer(rng, RANGES.val), test: RANGES.test };
  // The start knows families until its accuracy (without the broad rule, which hides them) reaches
  // the one drawn: a broad start then holds rules a repair can keep.
  // An A/A start knows a fifth of its world at least: rewordings of no rule would test nothing.
  const aim = uniform(rng, aa ? [AA_START, RANGES.startAccuracy[1]] : RANGES.startAccuracy);
  const known: string[] = [];
  const spec = (k: string[], b = broad): HardWorldSpec => ({
    name,
    topics,
    grades,
    blind,
    initialSkill: startingSkill({ grades }, { known: k, harmful, broad: b, carried }),
    ...(oneCause ? { oneCause } : {}),
  });
  const test = generatedItems({ spec: spec([], null), sizes }).filter((i) => i.split === 'test');
  const accuracy = (k: string[]) => accuracyOn(spec(k, null).initialSkill, test, spec(k, null));
  for (const t of shuffle(
    rng,
    topics.filter((x) => !carried.includes(x)),
  )) {
    if (accuracy([...known, t]) <= aim + 1e-9) known.push(t);
  }
  const deterministic = chance(rng, SHARES.deterministic);
  const targetNoise = deterministic
    ? null
    : { miss: round(uniform(rng, RANGES.miss)), guess: round(uniform(rng, RANGES.guess)) };
  const slip = round(uniform(rng, RANGES.slip), 2);
  const useless = chance(rng, SHARES.useless) ? round(uniform(rng, RANGES.useless), 2) : 0;
  const repairSlip = round(uniform(rng, RANGES.repairSlip), 2);
  const narrow = chance(rng, SHARES.narrow) ? round(uniform(rng, RANGES.narrow), 2) : 0;
  const repairBlind = chance(rng, SHARES.repairBlind) ? round(uniform(rng, RANGES.repairBlind), 2) : 0;
  return {
    name,
    seed,
    aa,
    spec: spec(known),
    sizes,
    targetNoise,
    slip,
    useless,
    repairSlip,
    narrow,
    repairBlind,
    start: { known, harmful, broad, carried },
  };
}

function shuffle<T>(rng: SeededRandom, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A set of worlds: `count` seeds from a base (the development set's is fixed; a fresh set's is new each run). */
export function worldSet(label: string, base: number, count: number): GeneratedWorld[] {
  return Array.from({ length: count }, (_, i) => generateWorld(base + i, `${label}-${i + 1}`));
}

/** The development set's base seed: fixed, so its figures compare across commits. */
export const DEV_BASE = 40_000;

/** One line saying what a world is. */
export function describeWorld(w: GeneratedWorld): string {
  const paired = Object.keys(w.spec.grades).length;
  const parts = [
    w.aa ? 'A/A' : null,
    `${w.spec.topics.length} families`,
    paired ? `${paired} paired${w.spec.oneCause ? ' (one cause)' : ''}` : null,
    w.spec.blind.length ? `${w.spec.blind.length} blind` : null,
    w.start.harmful ? 'harmful' : null,
    w.start.broad !== null ? `broad ${w.start.broad} carries ${w.start.carried.length}` : null,
    `knows ${w.start.known.length}`,
    `val ${w.sizes.val}, train ${w.sizes.train}`,
    w.targetNoise ? `noise ${w.targetNoise.miss}/${w.targetNoise.guess}` : 'deterministic',
    `slip ${w.slip}`,
    w.useless ? `useless ${w.useless}` : null,
    `repair slip ${w.repairSlip}`,
    w.narrow ? `narrow ${w.narrow}` : null,
    w.repairBlind ? `repair blind ${w.repairBlind}` : null,
  ];
  return parts.filter(Boolean).join(', ');
}
