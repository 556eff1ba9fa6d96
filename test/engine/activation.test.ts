// The activation track (issue #23 item 4): the SKILL.md description trained on trigger queries at
// each epoch's end, gated on its own validation queries, through the SDK and the test server.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';
import { startLlmServer } from '../support/llm-server';
import { agentLoads, describerReply, shouldLoad, TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { killAndResumeAt, pointsAfter, referenceRun, type World } from '../support/resume-harness';
import { SMALL_CONFIG, INITIAL_SKILL, worldDataset } from '../support/harness';
import { neutralDescriber } from '../support/bench-activation';

const server = sharedLlmServer();
const QUERIES = triggerWorldQueries();
const activation = { queries: QUERIES, name: 'specimen-codes', description: TRIGGER_START_DESCRIPTION };
/** Share of queries a description decides right, without noise: the held-out figure. */
const expected = (d: string) => QUERIES.filter((q) => agentLoads(d, q.query) === shouldLoad(q.query)).length / QUERIES.length;

describe('the activation track', () => {
  it('rewrites the description from its misfires and keeps a rewrite that decides better on held-out queries', async () => {
    server().set({ describerSlip: 0 });
    const { outcome, store, runId } = await trainOnce({ url: server().url, config: { activationTrack: true }, activation });
    expect(outcome.status).toBe('completed');
    const a = (await store.loadState(runId))!.activation!;
    expect(a.initialDescription).toBe(TRIGGER_START_DESCRIPTION);
    expect(a.epochs.map((e) => e.epoch)).toEqual([1, 2]);
    expect(a.epochs[0].action).toBe('accept');
    expect(a.description).not.toBe(TRIGGER_START_DESCRIPTION);
    expect(expected(a.description)).toBe(1);
    expect(expected(TRIGGER_START_DESCRIPTION)).toBeLessThan(0.75);
    expect(a.score).toBeGreaterThan(a.baselineScore);
    expect(a.test!.best).toBe(1);
    expect(a.test!.best).toBeGreaterThan(a.test!.initial);
    expect(outcome.summary!.activation).toEqual(a);
    // The track's calls are billed under their own stages; the body trained as it always does.
    const usage = outcome.summary!.usage;
    expect(usage.activationRollout?.calls).toBeGreaterThan(0);
    expect(usage.activationRewrite?.calls).toBeGreaterThan(0);
    expect(outcome.summary!.accepts).toBeGreaterThan(0);
    // The agent was shown the skill's name and the description, and asked about one request.
    const asked = server().log.filter((e) => e.stage === 'describe_skill');
    expect(asked.length).toBeGreaterThan(0);
  });

  it('keeps an over-broad rewrite out at its gate', async () => {
    server().set({ describerSlip: 1 }); // every rewrite over-broad
    const { store, runId } = await trainOnce({ url: server().url, runId: 'slips', config: { activationTrack: true, epochs: 2 }, activation });
    const a = (await store.loadState(runId))!.activation!;
    const slips = a.epochs.filter((e) => e.candidate && expected(e.candidate) < expected(TRIGGER_START_DESCRIPTION));
    expect(slips.length).toBeGreaterThan(0);
    for (const e of slips) {
      expect(e.action).toBe('reject');
      expect(e.valCandidate!).toBeLessThan(e.valCurrent!);
    }
    expect(expected(a.description)).toBeGreaterThanOrEqual(expected(TRIGGER_START_DESCRIPTION));
  });

  // Issue #40: a describer deterministic in its prompt wrote the same rejected rewrite every epoch.
  const OVER_BROAD = 'Use for any question about specimens, materials or anything else.';
  const REJECTED = '## Rewrites already rejected at the gate';
  const goodRewrite = (user: string) => describerReply(user, 0.99, 0);

  it('shows a rejected rewrite to the next ask, so a describer that slipped once gets another chance', async () => {
    // Writes the over-broad rewrite until it is shown that the gate rejected it.
    server().set({
      keepPrompts: true,
      optimizerHook: (stage, _s, user) =>
        stage !== 'describe_skill'
          ? undefined
          : user.includes(REJECTED)
            ? goodRewrite(user)
            : { reasoning: 'Broaden it.', description: OVER_BROAD },
    });
    try {
      const { store, runId } = await trainOnce({
        url: server().url,
        runId: 'rejected-shown',
        config: { activationTrack: true, epochs: 2 },
        activation,
      });
      const a = (await store.loadState(runId))!.activation!;
      const e1 = a.epochs[0];
      expect(e1.earlier).toEqual([expect.objectContaining({ candidate: OVER_BROAD })]);
      expect(e1.earlier![0].valCandidate).toBeLessThan(e1.earlier![0].valCurrent);
      expect(e1.lookAhead).toBeUndefined();
      expect(e1.action).toBe('accept');
      expect(expected(a.description)).toBe(1);
      // The second ask named the rejected rewrite and what it did at the gate.
      const asks = server().log.filter((e) => e.stage === 'describe_skill');
      expect(asks[0].user).not.toContain(REJECTED);
      expect(asks[1].user).toContain(`"${OVER_BROAD}" — validation`);
    } finally {
      server().set({ optimizerHook: undefined });
    }
  });

  it('refines a rewrite that tied at the gate from its own misfires, and gates the result against the start', async () => {
    // From the start it always writes a description for every family that forgets to exclude the
    // near misses: on seed 8's validation queries it gains as many codes as it loses near misses.
    const GENERAL = 'Gives the specimen code for any specimen family.';
    server().set({
      keepPrompts: true,
      optimizerHook: (stage, _s, user) =>
        stage !== 'describe_skill'
          ? undefined
          : user.includes(`## Current description\n${TRIGGER_START_DESCRIPTION}\n`)
            ? { reasoning: 'Cover every family.', description: GENERAL }
            : goodRewrite(user),
    });
    try {
      const { store, runId } = await trainOnce({
        url: server().url,
        runId: 'look-ahead',
        config: { activationTrack: true, epochs: 2, seed: 8 },
        activation,
      });
      const a = (await store.loadState(runId))!.activation!;
      const e1 = a.epochs[0];
      // The precondition: the first rewrite tied at validation and was rejected.
      expect(e1.earlier).toEqual([expect.objectContaining({ candidate: GENERAL })]);
      expect(e1.earlier![0].valCandidate).toBe(e1.earlier![0].valCurrent);
      expect(e1.lookAhead).toBe(true);
      expect(e1.action).toBe('accept');
      expect(e1.valCurrent).toBe(a.baselineScore); // met the epoch's start, not the tied rewrite
      expect(expected(a.description)).toBe(1);
      // The refinement read the tied rewrite and the near misses it loads for.
      const asks = server().log.filter((e) => e.stage === 'describe_skill');
      expect(asks[1].user).toContain(`## Current description\n${GENERAL}\n`);
      expect(asks[1].user).toMatch(/" — should not load the skill; the agent answered yes/);
    } finally {
      server().set({ optimizerHook: undefined });
    }
  });

  it('is off unless asked for: no trigger query is sent, no state is kept', async () => {
    const { store, runId } = await trainOnce({ url: server().url, runId: 'off', config: { epochs: 1 }, activation });
    expect((await store.loadState(runId))!.activation).toBeUndefined();
    expect(server().log.some((e) => e.stage === 'describe_skill')).toBe(false);
  });
});

// Issue #40: the track's gate is the run's comparator (a posterior verdict on this config), and an
// undecided verdict buys more samples of the validation queries instead of saying no.
describe('the activation track on a noisy agent', () => {
  const NOISE = { miss: 0.1, guess: 0.05 };
  const noisyRun = async (seed: number, hook?: typeof neutralDescriber) => {
    const srv = await startLlmServer({ describerSlip: 0.25, noiseSeed: seed, targetNoise: NOISE, ...(hook ? { optimizerHook: hook } : {}) });
    try {
      const { outcome, store, runId } = await trainOnce({ url: srv.url, config: { activationTrack: true, epochs: 3, seed }, data: worldDataset(60), activation });
      expect(outcome.status).toBe('completed');
      return (await store.loadState(runId))!.activation!;
    } finally {
      await srv.close();
    }
  };

  it('keeps the starting description when every rewrite only rewords it (A/A: any accept is a false one)', async () => {
    // Seed 1: the mean verdict took a lucky draw of the agent on a reworded description for a gain.
    const a = await noisyRun(1, neutralDescriber);
    const asked = a.epochs.filter((e) => e.candidate);
    expect(asked.length).toBeGreaterThan(0);
    for (const e of asked) expect(e.action).toBe('reject');
    expect(a.description).toBe(TRIGGER_START_DESCRIPTION);
  }, 60_000);

  it('buys more samples when undecided, and keeps a rewrite that is truly better', async () => {
    // Seed 3: the full rewrite gains two of ten validation queries; on the run's three samples the
    // verdict is not sure (one gained query answered once, a kept one slipped), so it asks again.
    const a = await noisyRun(3);
    const bought = a.epochs.find((e) => e.evidence);
    expect(bought).toBeDefined();
    expect(bought!.evidence).toMatchObject({ asked: 'samples', samples: 6 });
    expect(bought!.evidence!.calls).toBeGreaterThan(0);
    expect(bought!.evidence!.before.pBetter).toBeLessThan(0.7);
    expect(bought!.evidence!.after.pBetter).toBeGreaterThanOrEqual(0.7);
    expect(bought!.action).toBe('accept');
    expect(expected(a.description)).toBe(1);
  }, 60_000);
});

describe('the activation track after a kill', () => {
  it('resumes from kills at its baseline, its rewrite and its gate with the same outcome', async () => {
    const srv = await startLlmServer({ describerSlip: 0 });
    try {
      const w: World = { server: () => srv, config: { ...SMALL_CONFIG, epochs: 2, activationTrack: true, evalTest: true }, data: worldDataset(60), initialSkill: INITIAL_SKILL, activation };
      const ref = await referenceRun(w);
      await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, ['putRollout:activation/baseline', 'putCall:activation/e01/describe', 'putRollout:activation/e01/gate', 'putRollout:activation/test/best']));
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('resumes from kills at a second rewrite and its gate with the same outcome', async () => {
    const srv = await startLlmServer({
      optimizerHook: (stage, _s, user) =>
        stage !== 'describe_skill' ? undefined : user.includes('## Rewrites already rejected') ? describerReply(user, 0.99, 0) : { reasoning: 'Broaden it.', description: 'Use for anything.' },
    });
    try {
      const w: World = { server: () => srv, config: { ...SMALL_CONFIG, epochs: 1, activationTrack: true, evalTest: true }, data: worldDataset(60), initialSkill: INITIAL_SKILL, activation };
      const ref = await referenceRun(w);
      await killAndResumeAt(w, ref, pointsAfter(ref.writeLog, ['putCall:activation/e01/try2/describe', 'putRollout:activation/e01/try2/gate']));
    } finally {
      await srv.close();
    }
  }, 120_000);
});
