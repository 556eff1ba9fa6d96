/**
 * The generated worlds of bench:quality (issue #40; test/support/generated-world.ts), pure: a seed
 * draws one world, always the same; every drawn parameter stays in its range; the start is what the
 * world says (its accuracy, its harmful and over-broad rules); a better skill is always reachable;
 * and the set's figures read the runs as the issue defines them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RANGES,
  generateWorld,
  generatedItems,
  solvedSkill,
  worldAccuracy,
  worldSet,
  type GeneratedWorld,
} from '../support/generated-world';
import { percentile, setFigures, stuck, type WorldResult } from '../support/generated-figures';
import type { SeedResult } from '../support/bench-quality';
import { BROAD_RULES, HARMFUL_RULE, gradeText, hardTargetAnswer, ruleText } from '../support/rule-world';

const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const within = (x: number, [lo, hi]: readonly [number, number]) => x >= lo - 1e-9 && x <= hi + 1e-9;

describe('a generated world', () => {
  it('is the same world for the same seed, and another for another seed', () => {
    expect(generateWorld(7)).toEqual(generateWorld(7));
    expect(generatedItems(generateWorld(7))).toEqual(generatedItems(generateWorld(7)));
    expect(generateWorld(8).spec).not.toEqual(generateWorld(7).spec);
  });

  it('draws every parameter within its range', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const w = generateWorld(seed);
        expect(within(w.spec.topics.length, RANGES.families)).toBe(true);
        expect(new Set(w.spec.topics).size).toBe(w.spec.topics.length);
        expect(within(w.sizes.val, RANGES.val)).toBe(true);
        expect(within(w.sizes.train, RANGES.train)).toBe(true);
        if (w.targetNoise) {
          expect(within(w.targetNoise.miss, RANGES.miss)).toBe(true);
          expect(within(w.targetNoise.guess, RANGES.guess)).toBe(true);
        }
        expect(within(w.slip, RANGES.slip)).toBe(true);
        expect(w.useless === 0 || within(w.useless, RANGES.useless)).toBe(true);
        expect(within(w.repairSlip, RANGES.repairSlip)).toBe(true);
        expect(within(worldAccuracy(w.spec.initialSkill, w, 'test'), RANGES.startAccuracy)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('splits its items as drawn: unique ids and specimens, validation blind to its blind families', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const w = generateWorld(seed);
        const items = generatedItems(w);
        const count = (split: string) => items.filter((i) => i.split === split).length;
        expect([count('train'), count('val'), count('test')]).toEqual([w.sizes.train, w.sizes.val, w.sizes.test]);
        expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
        const specimen = (q: string) => /specimen (\d+)/.exec(q)![1];
        expect(new Set(items.map((i) => specimen(i.question))).size).toBe(items.length);
        const family = (q: string) => /the ([a-z]+) code/.exec(q)![1];
        const valFamilies = new Set(items.filter((i) => i.split === 'val').map((i) => family(i.question)));
        for (const b of w.spec.blind) expect(valFamilies.has(b)).toBe(false);
        expect(valFamilies.size).toBeGreaterThanOrEqual(2);
        const trainFamilies = new Set(items.filter((i) => i.split === 'train').map((i) => family(i.question)));
        expect(trainFamilies.size).toBe(w.spec.topics.length);
      }),
      { numRuns: 40 },
    );
  });

  it('always has a better skill within reach: the solved skill answers every item', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const w = generateWorld(seed);
        for (const split of ['train', 'val', 'test'] as const)
          expect(worldAccuracy(solvedSkill(w.spec), w, split)).toBe(1);
      }),
      { numRuns: 40 },
    );
  });

  it('starts as it says: the known families’ rules, the harmful rule, the broad rule and the families it carries', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const w = generateWorld(seed);
        const skill = w.spec.initialSkill;
        for (const t of w.start.known) expect(skill).toContain(ruleText(t));
        for (const t of w.spec.topics.filter((x) => !w.start.known.includes(x)))
          expect(skill).not.toContain(ruleText(t));
        expect(skill.includes(HARMFUL_RULE)).toBe(w.start.harmful);
        const broad = BROAD_RULES.find((b) => skill.includes(b.text));
        expect(broad?.digit ?? null).toBe(w.start.broad);
        if (w.start.broad !== null) {
          // It carries one family at least, at most half; the start right on a carried family's odd specimens.
          expect(w.start.carried.length).toBeGreaterThanOrEqual(1);
          expect(w.start.carried.length).toBeLessThanOrEqual(w.spec.topics.length / 2);
          const carried = generatedItems(w).filter((i) => i.question.includes(`the ${w.start.carried[0]} code`));
          const right = carried.filter((i) => hardTargetAnswer(skill, i.question, w.spec) === i.answers[0]);
          const odd = carried.filter((i) => Number(/specimen (\d+)/.exec(i.question)![1]) % 2 === 1);
          expect(right.length).toBe(w.start.harmful ? odd.length : carried.length);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('breaks half of each family’s items with the harmful rule (odd and even specimens alternate)', () => {
    const w = [...Array(200).keys()]
      .map((i) => generateWorld(100 + i))
      .find((x) => x.start.harmful && x.start.broad === null && x.start.known.length)!;
    const t = w.start.known[0];
    const items = generatedItems(w).filter((i) => i.split === 'test' && i.question.includes(`the ${t} code`));
    const right = items.filter(
      (i) => hardTargetAnswer(w.spec.initialSkill, i.question, w.spec) === i.answers[0],
    ).length;
    expect(items.length).toBeGreaterThanOrEqual(4);
    expect(Math.abs(right - items.length / 2)).toBeLessThanOrEqual(0.5);
    const without = w.spec.initialSkill.replace(HARMFUL_RULE, '');
    expect(
      items.every((i) => hardTargetAnswer(without, i.question, w.spec) === i.answers[0] || !!w.spec.grades[t]),
    ).toBe(true);
  });

  it('draws each kind of world in its share over many seeds', () => {
    const ws = worldSet('x', 1, 300);
    const share = (f: (w: GeneratedWorld) => boolean) => ws.filter(f).length / ws.length;
    expect(share((w) => w.aa)).toBeGreaterThan(0.14);
    expect(share((w) => w.aa)).toBeLessThan(0.26);
    expect(share((w) => w.targetNoise === null)).toBeGreaterThan(0.18);
    expect(share((w) => w.start.broad !== null)).toBeGreaterThan(0.3);
    expect(share((w) => w.start.harmful)).toBeGreaterThan(0.27);
    expect(share((w) => Object.keys(w.spec.grades).length > 0)).toBeGreaterThan(0.5);
    expect(share((w) => w.sizes.val <= 12)).toBeGreaterThan(0.05);
    // Cold starts and warm ones.
    const starts = ws.map((w) => worldAccuracy(w.spec.initialSkill, w, 'test'));
    expect(starts.filter((x) => x < 0.1).length).toBeGreaterThan(15);
    expect(starts.filter((x) => x >= 0.4).length).toBeGreaterThan(15);
    expect(ws.map((w) => w.seed)).toEqual(ws.map((_, i) => 1 + i));
    expect(ws[0].name).toBe('x-1');
  });

  it('gives an A/A world rules to reword: its start states a family’s rule at least', () => {
    const aa = worldSet('x', 1, 200).filter((w) => w.aa);
    expect(aa.length).toBeGreaterThan(20);
    for (const w of aa) expect(w.start.known.length).toBeGreaterThan(0);
  });

  it('states a paired family’s grade mark in the solved skill', () => {
    const w = [...Array(50).keys()].map((i) => generateWorld(i + 1)).find((x) => Object.keys(x.spec.grades).length)!;
    const [t] = Object.keys(w.spec.grades);
    expect(solvedSkill(w.spec)).toContain(gradeText(t, w.spec.grades));
  });
});

/** A run's result with only what the figures read. */
function run(world: Partial<GeneratedWorld>, r: Partial<SeedResult>): WorldResult {
  return {
    world: { aa: false, ...world } as GeneratedWorld,
    result: {
      heldOut: 1,
      initialHeldOut: 0.2,
      accepts: 1,
      trainingTargetCalls: 300,
      callsTo95: 200,
      reportedLift: 0,
      liftInterval: null,
      bestMoved: true,
      ...r,
    } as SeedResult,
  };
}

describe('a set’s figures', () => {
  it('takes the 10th percentile by nearest rank', () => {
    expect(percentile([5, 1, 4, 2, 3, 6, 7, 8, 9, 10], 0.1)).toBe(1);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.1)).toBe(2);
    expect(percentile([0.5], 0.1)).toBe(0.5);
  });

  it('counts a run stuck when its held-out is no better than its start, and an A/A run never', () => {
    expect(stuck(run({}, { heldOut: 0.2, initialHeldOut: 0.2 }))).toBe(true);
    expect(stuck(run({}, { heldOut: 0.1, initialHeldOut: 0.2 }))).toBe(true);
    expect(stuck(run({}, { heldOut: 0.25, initialHeldOut: 0.2 }))).toBe(false);
    expect(stuck(run({ aa: true }, { heldOut: 0.5, initialHeldOut: 0.5 }))).toBe(false);
  });

  it('reads learning over the worlds with something to learn and false accepts over the A/A ones', () => {
    const f = setFigures([
      run({}, { heldOut: 1, trainingTargetCalls: 200, callsTo95: 150 }),
      run({}, { heldOut: 0.5, initialHeldOut: 0.5, trainingTargetCalls: 400, callsTo95: null }),
      run({ aa: true }, { heldOut: 0.5, initialHeldOut: 0.5, accepts: 1, liftInterval: [-0.1, 0.1] }),
      run({ aa: true }, { heldOut: 0.5, initialHeldOut: 0.5, accepts: 0, liftInterval: [0.05, 0.2] }),
    ]);
    expect(f.learn).toMatchObject({ worlds: 2, meanHeldOut: 0.75, minHeldOut: 0.5, stuck: 1, reached95: 1 });
    expect(f.learn.meanCallsTo95).toBe(275);
    expect(f.aa).toMatchObject({ worlds: 2, runsAccepting: 1, acceptingRate: 0.5, intervalCoversZero: 0.5 });
  });
});
