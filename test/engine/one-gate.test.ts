// Issue #29 item 2: one gate for every place that accepts a skill. Its pure judgement decides the
// same way everywhere; the final promotion to best and the activation track's description now
// meet the run's gate rule too (before, only a step's candidate and the slow update did).
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, SMALL_CONFIG, trainOnce, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { ruleText, TOPICS } from '../support/rule-world';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { createContext } from '../../src/engine/context';
import { modelTarget } from '../../src/engine/target/model-target';
import { Meter } from '../../src/engine/meter';
import { initialRunState } from '../../src/engine/run/trainer';
import { finish } from '../../src/engine/run/finish';
import { judge } from '../../src/engine/gate';
import { scoreOnSelection } from '../../src/engine/validation-score';
import { pairedVerdict, type ItemPair } from '../../src/core/verdict/paired-verdict';
import type { RunConfig } from '../../src/core/config/run-config';
import type { RunEvent } from '../../src/engine/events';

const server = sharedLlmServer();

describe('the gate’s judgement', () => {
  const pairs = (ref: number[], cand: number[]): ItemPair[] =>
    ref.map((r, i) => ({ itemId: `i${i}`, ref: [{ hard: r, soft: r }], cand: [{ hard: cand[i], soft: cand[i] }] }));
  const compared = (ref: number[], cand: number[], complete = true) => {
    const p = pairs(ref, cand);
    const verdict = pairedVerdict(p, { metric: 'hard', margin: 1 });
    return { complete, gain: verdict.gain, verdict, pairs: p };
  };
  const c = (o: Partial<RunConfig> = {}) => ({ ...SMALL_CONFIG, ...o });

  it('accepts a strict gain, and nothing from an incomplete comparison', () => {
    expect(judge(c(), compared([0, 0, 1], [1, 0, 1]), { margin: 1, tie: null }).outcome).toBe('gain');
    expect(judge(c(), compared([0, 0, 1], [1, 0, 1], false), { margin: 1, tie: null }).outcome).toBe('none');
  });

  it('takes a tie only through the tie-break: a strict train win and no validation item lost', () => {
    const swap = compared([1, 0], [0, 1]); // one fixed, one broken: a tie that loses an item
    const same = compared([1, 0], [1, 0]);
    expect(judge(c(), same, { margin: 1, tie: null })).toMatchObject({ outcome: 'none', tieBreak: null });
    expect(judge(c(), same, { margin: 1, tie: { trainStrict: true } })).toMatchObject({
      outcome: 'tie',
      tieBreak: { accepted: true },
    });
    expect(judge(c(), swap, { margin: 1, tie: { trainStrict: true } })).toMatchObject({
      outcome: 'none',
      tieBreak: { accepted: false },
    });
  });

  it('holds every accept to the run’s gate rule, on the metric it is given', () => {
    const mixed = compared([1, 0, 0, 0], [0, 1, 1, 1]); // gains three, breaks one
    expect(judge(c(), mixed, { margin: 1, tie: null }).rule).toBeNull();
    const j = judge(c({ gateRule: 'no_regression' }), mixed, { margin: 1, tie: null, metric: 'hard' });
    expect(j.outcome).toBe('gain');
    expect(j.rule).toMatchObject({ rule: 'no_regression', allowed: false, regressed: ['i0'] });
  });
});

/** The final promotion on a run whose current skill gains on validation but breaks items the best passes. */
async function finishWith(config: Partial<RunConfig>) {
  const cfg = { ...SMALL_CONFIG, evalTest: false, ...config };
  const data = worldDataset(100);
  const llm = createLlmPort(
    { target: testEndpoint(server().url, 'sim-target'), optimizer: testEndpoint(server().url, 'sim-optimizer') },
    { backoffBaseMs: 1 },
  );
  const events: RunEvent[] = [];
  const store = new MemoryRunStore();
  const ctx = await createContext({
    runId: 'final',
    config: cfg,
    llm,
    store,
    prompts: loadPrompts(),
    items: data.items,
    meter: new Meter({}, {}),
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    now: () => Date.now(), target: modelTarget,
  });
  const best = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n`;
  const current = `${INITIAL_SKILL}\n${ruleText(TOPICS[1])}\n${ruleText(TOPICS[2])}\n${ruleText(TOPICS[3])}\n`;
  const state = initialRunState({ runId: 'final', config: cfg, data, initialSkill: INITIAL_SKILL }, 0);
  const [b, cur] = [
    await scoreOnSelection(ctx, state, data, 'setup/best', best),
    await scoreOnSelection(ctx, state, data, 'setup/current', current),
  ];
  state.gate = {
    currentSkill: current,
    currentScore: cur.gate,
    currentOrigin: 'step_0003',
    bestSkill: best,
    bestScore: b.gate,
    bestStep: 1,
    bestOrigin: 'step_0001',
  };
  const session = { ctx, data, totalSteps: 4, stage: () => {}, saveVersion: async () => {} };
  const after = await finish(session, state);
  return { before: state.gate, after: after.gate, events, scores: { best: b.gate, current: cur.gate } };
}

describe('the final promotion goes through the one gate', () => {
  it('under the mean rule, a final skill that beats the best on validation becomes best', async () => {
    const r = await finishWith({});
    expect(r.scores.current).toBeGreaterThan(r.scores.best);
    expect(r.after.bestSkill).toBe(r.before.currentSkill);
    expect(r.after.bestOrigin).toBe('step_0003');
    expect(r.after.bestStep).toBe(4);
    // Only best moves: the final skill keeps the score it ended with.
    expect(r.after.currentScore).toBe(r.before.currentScore);
  });

  it('under the no-regression rule, one that breaks items the best passes stays out, and the log says why', async () => {
    const r = await finishWith({ gateRule: 'no_regression' });
    expect(r.after.bestSkill).toBe(r.before.bestSkill);
    expect(r.after.bestScore).toBe(r.before.bestScore);
    const said = r.events.filter((e) => e.type === 'log').map((e) => (e as { message: string }).message);
    expect(said.some((m) => /gate rule keeps the best: .*items? that passed would fail/.test(m))).toBe(true);
  });
});

describe('the activation track’s description meets the gate rule', () => {
  const activation = { queries: triggerWorldQueries(), name: 'specimen-codes', description: TRIGGER_START_DESCRIPTION };

  it('a rewrite that gains, but not by k standard errors, is kept out under the significance rule', async () => {
    server().set({ describerSlip: 0 });
    const run = (config: Partial<RunConfig>, runId: string) =>
      trainOnce({ url: server().url, runId, config: { activationTrack: true, epochs: 1, ...config }, activation });
    const mean = await run({}, 'mean');
    const first = (await mean.store.loadState('mean'))!.activation!.epochs[0];
    expect(first.action).toBe('accept');
    expect(first.rule).toBeUndefined();
    const strict = await run({ gateRule: 'significance', gateSignificanceK: 50 }, 'significance');
    const a = (await strict.store.loadState('significance'))!.activation!;
    expect(a.epochs[0]).toMatchObject({ action: 'reject', candidate: first.candidate, rule: { allowed: false } });
    expect(a.epochs[0].rule!.reason).toMatch(/not above 50 × its standard error/);
    expect(a.description).toBe(TRIGGER_START_DESCRIPTION);
  });
});
