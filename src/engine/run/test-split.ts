/**
 * The test split scored for a set of skills under one target (algorithm doc §2.9): each distinct
 * skill once, tried again per item when the run asks for several tries (pass^k), the answers a
 * lift hinges on settled on a noisy target, and the best skill's lift over the starting skill
 * (and over no skill) with its interval. The run's own test uses it, and so does each target
 * that confirms the run's skills (transfer.ts), under phases of its own.
 */
import { type EngineContext } from '../context';
import { rolloutPhase, type PhaseResult } from '../rollout';
import { laterSamples, policyOf, runFlipTally } from '../noise-ledger';
import type { RolloutRow, RunState, RunSummary, TestReport } from '../types';
import { fitLatent, liftInterval, type Unit } from '../../core/verdict/lift';
import { addUnit, flipRate, NO_FLIPS, resamples, type FlipTally, type NoisePolicy } from '../../core/verdict/noise';
import { isSettled } from '../../core/verdict/paired-verdict';
import { isPass } from '../../core/verdict/credit';
import { passKOf, type ItemTries } from '../../core/verdict/pass-k';
import { testTries } from '../../core/config/run-config';

/** A role on test and the skill it names. */
export type TestRole = readonly [TestReport['skill'], string];

function testReport(skill: TestReport['skill'], r: PhaseResult, items: EngineContext['items']): TestReport {
  const byTaskType: TestReport['byTaskType'] = {};
  for (const row of r.rows) {
    if (row.status !== 'ok') continue;
    const t = items.get(row.itemId)?.taskType ?? 'overall';
    byTaskType[t] ??= { total: 0, hard: 0 };
    byTaskType[t].total++;
    byTaskType[t].hard += row.hard;
  }
  for (const v of Object.values(byTaskType)) v.hard = v.total ? v.hard / v.total : 0;
  return { skill, hash: r.skillHash, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, byTaskType };
}

/**
 * The best skill's lift over the starting skill (and over no skill) on test, with the target's
 * noise taken out and an interval over items and noise (core/verdict/lift.ts).
 */
function honestLifts(
  state: RunState,
  roles: readonly TestRole[],
  distinct: readonly TestRole[],
  rowsByDistinct: readonly RolloutRow[][],
  repeats: number,
  noise: TestNoise,
): Pick<RunSummary, 'lift' | 'liftOverNone'> {
  const samples = (skill: string) => {
    const m = new Map<string, { passes: number; n: number }>();
    for (const r of rowsByDistinct[distinct.findIndex(([, other]) => other === skill)] ?? []) {
      if (r.status !== 'ok') continue;
      const x = m.get(r.itemId) ?? { passes: 0, n: 0 };
      m.set(r.itemId, { passes: x.passes + (isPass(r.hard) ? 1 : 0), n: x.n + 1 });
    }
    return m;
  };
  const units: Unit[] = distinct.flatMap(([role, skill]) =>
    [...samples(skill).values()].map((x) => ({ group: role, ...x })),
  );
  const { tally, later } = noise;
  // Repeated samples tell misses from guesses; a skill's test samples its share known.
  const fit = fitLatent([...units, ...later], tally);
  const groupOf = (skill: string) => distinct.find(([, other]) => other === skill)![0];
  const liftOver = (against: 'initial' | 'none'): RunSummary['lift'] => {
    const base = roles.find(([r]) => r === against)?.[1];
    if (base === undefined) return undefined;
    const best = state.gate.bestSkill;
    const [b, a] = [samples(best), samples(base)];
    const items = [...b.keys()].filter((id) => a.has(id)).map((id) => ({ best: b.get(id)!, base: a.get(id)! }));
    // The same skill on both sides: no lift, and no noise between a skill and itself.
    const l =
      best === base
        ? {
            measured: 0,
            estimate: 0,
            interval: [0, 0] as [number, number],
            level: 0.95,
            n: items.length,
            uncertain: true,
          }
        : liftInterval(items, fit, { best: groupOf(best), base: groupOf(base) }, { seed: state.config.seed });
    return {
      against,
      ...l,
      noise: { miss: fit.miss, guess: fit.guess, flipRate: flipRate(tally), repeatedSamples: tally.samples },
      repeats,
    };
  };
  return { lift: liftOver('initial'), liftOverNone: liftOver('none') };
}

/** Test items a skill is asked again on when the target has looked deterministic. */
const SPOT_CHECKS = 8;

/**
 * Ask one skill again on the test items whose first answer failed (or passed), until each such
 * item's outcome is settled by the noise policy's margin or its samples run out. Returns the new rows.
 */
async function settleAnswers(
  ctx: EngineContext,
  phase: string,
  skill: string,
  rows: readonly RolloutRow[],
  ids: readonly string[],
  policy: NoisePolicy,
  want: 'fails' | 'passes',
): Promise<RolloutRow[]> {
  const samples = new Map<string, RolloutRow[]>();
  for (const r of rows) if (r.status === 'ok') samples.set(r.itemId, [...(samples.get(r.itemId) ?? []), r]);
  const position = new Map(ids.map((id, i) => [id, i]));
  const matching = ids.filter((id) => samples.has(id) && isPass(samples.get(id)![0].hard) === (want === 'passes'));
  // A target that looked deterministic is spot-checked on a few items (one more sample each).
  // A target that looked deterministic is still spot-checked here, however long it agreed: the
  // best skill's failures on test are where misses hide, and the lift's correction needs them.
  const spot = !resamples(policy);
  const open = spot ? matching.slice(0, SPOT_CHECKS) : matching;
  const added: RolloutRow[] = [];
  const done = new Set<string>();
  for (;;) {
    const asks = open.filter((id) => {
      const xs = samples.get(id)!;
      return (
        !done.has(id) && (spot ? xs.length < 2 : !isSettled(xs, policy.margin + 1) && xs.length < policy.maxSamples)
      );
    });
    if (!asks.length) return added;
    const byK = new Map<number, string[]>();
    for (const id of asks) byK.set(samples.get(id)!.length, [...(byK.get(samples.get(id)!.length) ?? []), id]);
    for (const [k, group] of byK) {
      const r = await rolloutPhase(ctx, {
        phase: `${phase}/r${k}`,
        skill,
        itemIds: group,
        orders: group.map((id) => position.get(id) ?? 0),
        repeat: k,
      });
      r.rows.forEach((row, i) => {
        if (row.status === 'ok') {
          samples.get(group[i])!.push(row);
          added.push(row);
        } else done.add(group[i]);
      });
    }
  }
}

/** Each test item's scored tries and passes: an errored try is no try (an API error is not a wrong answer). */
function triesOf(rows: readonly RolloutRow[], ids: readonly string[]): ItemTries[] {
  const by = new Map(ids.map((id) => [id, { n: 0, passes: 0 }]));
  for (const r of rows) {
    const t = by.get(r.itemId);
    if (!t || r.status !== 'ok') continue;
    t.n++;
    if (isPass(r.hard)) t.passes++;
  }
  return [...by.values()];
}

/** How the test report lists the skills: from no skill to the last one trained. */
const ORDER: TestReport['skill'][] = ['none', 'initial', 'best', 'final'];

/**
 * What tells the target's misses from its guesses: the run's own tally and repeated validation
 * samples for the training target; for another target, only what it showed on test itself.
 */
export interface TestNoise {
  tally: FlipTally;
  later: Unit[];
}

/** The training target's noise: everything the run saw of it. */
export const runNoise = (state: RunState): TestNoise => ({ tally: runFlipTally(state), later: laterSamples(state) });

/** Another target's noise: its own repeated test samples; the run's tally only when it has none. */
function ownNoise(state: RunState, rowsByDistinct: readonly RolloutRow[][]): TestNoise {
  let tally = NO_FLIPS;
  for (const rows of rowsByDistinct) {
    const byItem = new Map<string, boolean[]>();
    for (const r of rows)
      if (r.status === 'ok') byItem.set(r.itemId, [...(byItem.get(r.itemId) ?? []), isPass(r.hard)]);
    for (const passes of byItem.values()) tally = addUnit(tally, passes);
  }
  return { tally: tally.samples ? tally : runFlipTally(state), later: [] };
}

export interface TestScores {
  /** One report per role, from no skill to the final one. */
  tests: TestReport[];
  lifts: Pick<RunSummary, 'lift' | 'liftOverNone'>;
}

/**
 * Score `roles` on the test items under the context's target: phases `${prefix}/${role}`, each
 * distinct skill once (phases scored side by side would race the rollout cache and score one
 * skill twice when best is the initial or the final skill). `noise: 'run'` is the training
 * target's (the run's tally); `'own'` a target that confirms (its own repeats).
 */
export async function scoreOnTest(
  ctx: EngineContext,
  state: RunState,
  roles: readonly TestRole[],
  testIds: readonly string[],
  o: { prefix: string; noise: 'run' | 'own' },
): Promise<TestScores> {
  const c = ctx.config;
  const distinct = roles.filter(([, skill], i) => roles.findIndex(([, other]) => other === skill) === i);
  const at = (skill: string) => distinct.findIndex(([, other]) => other === skill);
  const results = await Promise.all(
    distinct.map(([role, skill]) => rolloutPhase(ctx, { phase: `${o.prefix}/${role}`, skill, itemIds: testIds })),
  );
  const tests = [...roles]
    .sort((a, b) => ORDER.indexOf(a[0]) - ORDER.indexOf(b[0]))
    .map(([role, skill]) => testReport(role, results[at(skill)], ctx.items));
  // Tries per test item (a knob; three for an agent by default): more samples make the lift's
  // interval tighter on a noisy target, and give pass^k beside pass^1 (issue #43).
  const repeats = testTries(c, ctx.agent.active);
  const policy = policyOf(c, state);
  const passK = new Map<string, TestReport['passK']>();
  const again = await Promise.all(
    distinct.map(async ([role, skill]) => {
      const rows = [...results[at(skill)].rows];
      const phase = `${o.prefix}/${role}`;
      for (let k = 1; k < repeats; k++)
        rows.push(...(await rolloutPhase(ctx, { phase: `${phase}/r${k}`, skill, itemIds: testIds, repeat: k })).rows);
      // pass^k from the k tries every item had alike: the answers settled below are asked only
      // where a first answer failed (or passed), and would tilt it.
      const atK = repeats > 1 ? passKOf(triesOf(rows, testIds), repeats) : null;
      if (atK) passK.set(skill, atK);
      // On a noisy target, the answers a lift hinges on are asked again until settled: the best
      // skill's failures (a miss, or not known?) and a starting point's passes (known, or a guess?).
      const want = skill === state.gate.bestSkill ? 'fails' : role === 'initial' || role === 'none' ? 'passes' : null;
      if (want && policy.maxSamples > 1)
        rows.push(...(await settleAnswers(ctx, phase, skill, rows, testIds, policy, want)));
      return rows;
    }),
  );
  const noise = o.noise === 'run' ? runNoise(state) : ownNoise(state, again);
  const lifts = honestLifts(state, roles, distinct, again, repeats, noise);
  for (const t of tests) {
    const atK = passK.get(roles.find(([role]) => role === t.skill)![1]);
    if (atK) t.passK = atK;
  }
  return { tests, lifts };
}
