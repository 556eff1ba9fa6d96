import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import { killAndResume, referenceRun, type World } from '../support/resume-harness';
import { conversationPolicy } from '../support/conversation-agent';
import { conversationOptimizerAnswer } from '../support/conversation-optimizer';
import { BROAD, HARM, RULES, START_SKILL } from '../support/conversation-world';
import { conversationDataset } from '../support/bench-simulated-user';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({
    agentPolicy: conversationPolicy(),
    optimizerHook: (stage, system, user) => conversationOptimizerAnswer(stage, system, user, { noise: 0 }),
  });
});
afterAll(() => server.close());

const simulatorCalls = () => server.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length;

describe('training on conversations with simulated users (issue #31)', () => {
  it('learns to ask what the user has not said, reading the user’s replies in the conversations', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    const { outcome, store, runId } = await trainOnce({ url: server.url, data: conversationDataset(), initialSkill: START_SKILL, config: { epochs: 1, batchSize: 12, minibatchSize: 4 } });
    expect(outcome.status).toBe('completed');
    const best = (await store.loadState(runId))!.gate.bestSkill;
    for (const r of Object.values(RULES)) expect(best).toContain(r.text);
    expect(best).not.toContain(HARM.text);
    expect(best).not.toContain(BROAD.text);
    const reflect = server.log.filter((e) => e.stage === 'reflect_failure').map((e) => e.user ?? '');
    expect(reflect.some((u) => u.includes('[user message 2] That does not answer my question.'))).toBe(true);
    expect(reflect.some((u) => /\[user message 5, the user gave up\] You could not help me/.test(u))).toBe(true);
    // The simulator's calls are their own stage, billed and counted as such.
    expect(outcome.summary?.usage?.userSimulator?.calls).toBe(simulatorCalls());
    expect(simulatorCalls()).toBeGreaterThan(0);
    server.set({ keepPrompts: false });
  }, 60_000);

  it('resumes a conversation killed at a user turn without asking the simulator or the agent again', async () => {
    const config: RunConfig = { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 8, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, targetConcurrency: 3, optimizerConcurrency: 3, noiseProbe: 4, maxTurns: 6, testRepeats: 1 };
    // testRepeats 1: what is resumed here is a conversation in training; an agent's three test tries (issue #43) would only triple three runs' test phase.
    const w: World = { server: () => server, config, data: conversationDataset(), initialSkill: START_SKILL };
    server.log.length = 0;
    const ref = await referenceRun(w);
    const refSimulator = simulatorCalls();
    // Just after the simulator's reply was stored (its checkpoint in the trajectory not yet), and just after a user turn's checkpoint.
    const replies = ref.writeLog.map((e, i) => [e, i + 1] as const).filter(([e]) => e.startsWith('putCall:user/'));
    expect(replies.length).toBeGreaterThan(10);
    for (const limit of [replies[0][1], replies[Math.floor(replies.length / 2)][1] + 1]) {
      server.log.length = 0;
      await killAndResume(w, ref, limit);
      // A stored reply is replayed: only simulator calls under way at the kill are asked again.
      expect(simulatorCalls() - refSimulator, `kill after write ${limit}`).toBeLessThanOrEqual(config.optimizerConcurrency);
    }
  }, 120_000);
});
