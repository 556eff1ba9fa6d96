// pass^k on the learning curve (issue #43, `curvePassK`), through the real SDK against the test server.
// A deterministic target answers every try alike: each point's pass^k is its pass^1, no item flips.
// A target that fails one known validation item on its second try and passes it on the others gives
// exact figures: with k = 3 that item's tries are pass, fail, pass — pass^1 2/3, pass^3 0, one flip —
// so a complete point over N items has pass^1 = score − 1/(3N), pass^3 = score − 1/N, flip rate 1/N.
// An agent's points are tried three times by default (its test tries), each try a whole trajectory.
// On a noisy target a point's figures are its first k tries per item, a try a verdict already asked reused.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { INITIAL_SKILL, SMALL_CONFIG, trainOnce, worldDataset } from '../support/harness';
import { killAndResumeAt, pointsAfter, referenceRun, type World } from '../support/resume-harness';
import { curveMarks } from '../../src/engine/curve-marks';
import { learningCurve, type CurvePoint } from '../../src/core/report/learning-curve';
import {
  DOUBLE,
  LOOKUP,
  UNITS_REFERENCE,
  toolWorldFile,
  toolWorldOptimizer,
  toolWorldPolicy,
} from '../support/tool-world';
import { bundlePackage } from '../../src/core/skill/skill-package';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { isPass } from '../../src/core/verdict/credit';
import { passKOfAsked } from '../../src/core/verdict/pass-k';
import { skillHash } from '../../src/core/basics/hash';

const server = sharedLlmServer();
const data = worldDataset();
const N = data.splits.val.length;
const ON = { epochs: 2, curvePassK: true, testRepeats: 3, evalTest: false };

async function curveOf(url: string, config: object, runId: string): Promise<CurvePoint[]> {
  const { outcome, store } = await trainOnce({ url, runId, data, config });
  expect(outcome.status).toBe('completed');
  return learningCurve(curveMarks((await store.loadState(runId))!, await store.getSteps(runId)));
}

describe('pass^k on the learning curve', () => {
  it('equals pass^1 with no flip on a deterministic target, on every point validation scored', async () => {
    const curve = await curveOf(server().url, ON, 'steady');
    const scored = curve.filter((p) => p.score !== null);
    expect(scored.filter((p) => p.kind !== 'baseline').length).toBeGreaterThan(0);
    for (const p of scored) {
      expect(p.passK, p.label).toMatchObject({ k: 3, flipRate: 0, items: p.n, short: 0 });
      expect(p.passK!.passAtK, p.label).toBe(p.passK!.passAt1);
      // The hard gate's score is the first try's pass rate: on a steady target, every try's.
      expect(p.passK!.passAt1, p.label).toBeCloseTo(p.score!, 12);
    }
    expect(curve.filter((p) => p.score === null).every((p) => p.passK === null)).toBe(true);
  }, 120_000);

  it('is the same after kills and resumes, in the middle of a point’s tries included', async () => {
    const w: World = {
      server,
      config: { ...SMALL_CONFIG, ...ON, slowUpdateGated: true },
      data: worldDataset(60),
      initialSkill: INITIAL_SKILL,
    };
    const ref = await referenceRun(w);
    const tried = ref.reference.curve.filter((p) => p.passK);
    expect(tried.map((p) => p.kind)).toEqual(expect.arrayContaining(['baseline', 'step', 'epoch']));
    const kinds = ['putRollout:baseline/curve/r1', 'putRollout:/curve/r2', 'putStep:2', 'putRollout:e02/curve/r1'];
    await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, kinds));
  }, 120_000);

  it('is absent when the run did not ask for it: the points carry pass^1 only', async () => {
    const curve = await curveOf(server().url, { ...ON, curvePassK: false }, 'plain');
    expect(curve.length).toBeGreaterThan(1);
    expect(curve.every((p) => p.passK === null)).toBe(true);
  }, 120_000);
});

describe('pass^k on a target that flips one known item', () => {
  let flaky: LlmTestServer;
  const item = data.items.find((i) => i.id === data.splits.val[0])!;
  beforeAll(async () => {
    // Tries of one prompt (one skill on the item), counted: the second fails, the others pass.
    const tries = new Map<string, number>();
    flaky = await startLlmServer({
      modelHook: (model, system, user) => {
        if (model !== 'sim-target' || !user.includes(item.question)) return undefined;
        const n = tries.get(system) ?? 0;
        tries.set(system, n + 1);
        return n === 1 ? 'unknown' : item.answers[0];
      },
    });
  });
  afterAll(() => flaky.close());

  it('gives a complete point exactly pass^1 = score − 1/(3N), pass^3 = score − 1/N, flip rate 1/N', async () => {
    const curve = await curveOf(flaky.url, ON, 'flips');
    const complete = curve.filter((p) => p.passK && p.n === N && p.complete);
    expect(complete[0].kind).toBe('baseline');
    expect(complete.length).toBeGreaterThan(2);
    for (const p of complete) {
      expect(p.passK, p.label).toMatchObject({ k: 3, items: N, short: 0 });
      // The k tries follow the first tries' pattern; the gate's settled score (the dot) may differ.
      const first = p.firstTry ?? p.score!;
      expect(p.passK!.passAt1, p.label).toBeCloseTo(first - 1 / (3 * N), 12);
      expect(p.passK!.passAtK, p.label).toBeCloseTo(first - 1 / N, 12);
      expect(p.passK!.flipRate, p.label).toBeCloseTo(1 / N, 12);
    }
  }, 120_000);
});

describe('pass^k on an agent’s learning curve', () => {
  let agents: LlmTestServer;
  beforeAll(async () => {
    agents = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  });
  afterAll(() => agents.close());

  it('tries each point three times by default (an agent’s test tries), every try a whole trajectory', async () => {
    const r = importDatasetText(toolWorldFile(40));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const tools = { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
    const { outcome, store, runId } = await trainOnce({
      url: agents.url,
      runId: 'agent',
      data: tools,
      initialSkill: bundlePackage(`# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${DOUBLE}\n`, [
        { path: 'references/units.md', text: UNITS_REFERENCE },
      ]),
      config: {
        epochs: 1,
        batchSize: 12,
        minibatchSize: 4,
        maxTurns: 4,
        referencesOnDemand: true,
        curvePassK: true,
        evalTest: false,
      },
    });
    expect(outcome.status).toBe('completed');
    const curve = learningCurve(curveMarks((await store.loadState(runId))!, await store.getSteps(runId)));
    const scored = curve.filter((p) => p.score !== null);
    expect(scored.length).toBeGreaterThan(1);
    // The tool world's agents answer alike on every try: pass^3 is pass^1, no item flips.
    for (const p of scored) expect(p.passK, p.label).toMatchObject({ k: 3, flipRate: 0, passAtK: p.passK!.passAt1 });
    const tries = (await store.listRollouts(runId)).filter((x) => /\/curve\/r[12]$/.test(x.phase));
    expect(tries.some((x) => x.phase === 'baseline/curve/r2')).toBe(true);
    expect(tries.every((x) => x.trajectory?.length)).toBe(true);
  }, 120_000);
});

describe('pass^k on a noisy target’s learning curve', () => {
  let noisy: LlmTestServer;
  beforeAll(async () => {
    noisy = await startLlmServer({ targetNoise: { miss: 0.25, guess: 0.1 }, noiseSeed: 3 });
  });
  afterAll(() => noisy.close());

  it('is each point’s first k tries per item: a verdict’s second try reused, its later ones no tries', async () => {
    const { outcome, store, runId } = await trainOnce({
      url: noisy.url,
      runId: 'noisy',
      data,
      config: { ...ON, epochs: 1, maxSamples: 5, testRepeats: 2 },
    });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const steps = await store.getSteps(runId);
    const val = new Set(data.splits.val);
    const rows = (await store.listRollouts(runId)).filter((r) => val.has(r.itemId));
    /** A skill's answers on each validation item by repeat (the cache key's `|r<j>`), one per repeat. */
    const answers = (hash: string) => {
      const by = new Map<string, Map<number, boolean | null>>();
      for (const r of rows.filter((x) => x.skillHash === hash && !x.cached)) {
        const j = Number(/\|r(\d+)$/.exec(r.cacheKey)?.[1] ?? 0);
        const item = by.get(r.itemId) ?? new Map<number, boolean | null>();
        item.set(j, r.status === 'ok' ? isPass(r.hard) : null);
        by.set(r.itemId, item);
      }
      return by;
    };
    // The starting skill's point came first; the steps' verdicts asked it again afterwards as their reference.
    const points = [
      { hash: await skillHash(state.initialSkill), passK: state.baselineMark!.curvePassK! },
      ...steps.filter((s) => s.curvePassK).map((s) => ({ hash: s.candidateHash!, passK: s.curvePassK! })),
    ];
    expect(points.length).toBeGreaterThan(0);
    let settledBeyondK = 0;
    for (const { hash, passK } of points) {
      const by = answers(hash);
      const firstK = [...by.values()]
        .filter((m) => m.get(0) !== undefined)
        .map((m) => [0, 1].map((j) => m.get(j) ?? null));
      expect(passK).toEqual(passKOfAsked(firstK, 2));
      settledBeyondK += [...by.values()].filter((m) => m.size > 2).length;
    }
    // A second try a verdict had already asked is reused, not asked again.
    const all = await store.listRollouts(runId);
    const verdictAsked = new Set(all.filter((r) => /^s\d+\/gate\/r1$/.test(r.phase)).map((r) => r.cacheKey));
    const curveTries = all.filter((r) => /^s\d+\/curve\/r1$/.test(r.phase));
    expect(curveTries.some((r) => verdictAsked.has(r.cacheKey))).toBe(true);
    expect(curveTries.filter((r) => verdictAsked.has(r.cacheKey)).every((r) => r.cached)).toBe(true);
    // Verdicts asked some items a third time or more: those answers are not tries of the point.
    expect(settledBeyondK).toBeGreaterThan(0);
    const curve = learningCurve(curveMarks(state, steps));
    expect(curve.some((p) => p.passK && p.passK.passAtK < p.passK.passAt1)).toBe(true);
  }, 120_000);
});
