// The simulated-user world in the runner (issue #31): customers played by a user simulator on an
// endpoint of its own (the config's "userSimulator", its key from SKILLWRIGHT_USER_SIMULATOR_API_KEY),
// trained end to end; the kept skill is judged as bench:quality judges it (its conversations
// replayed offline on the test items, neither the agent nor the user slipping).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { conversationPolicy } from '../support/conversation-agent';
import { conversationOptimizerAnswer } from '../support/conversation-optimizer';
import { START_SKILL, conversationDatasetText } from '../support/conversation-world';
import { conversationDataset, conversationHeldOut } from '../support/bench-simulated-user';
import { runCliIn } from '../support/cli-here';

const SIM_KEY = 'sk-user-simulator-cli-77';
const NOISE = { miss: 0.05, guess: 0.03 };
let llm: LlmTestServer;
let sim: LlmTestServer;
let dir: string;

beforeAll(async () => {
  llm = await startLlmServer({
    targetNoise: NOISE,
    noiseSeed: 1,
    agentPolicy: conversationPolicy(NOISE),
    optimizerHook: (stage, system, user) => conversationOptimizerAnswer(stage, system, user, { noise: 1 }),
  });
  sim = await startLlmServer({ apiKey: SIM_KEY });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-simulated-user-'));
  writeFileSync(join(dir, 'orders.json'), conversationDatasetText());
  writeFileSync(join(dir, 'skill.md'), START_SKILL);
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'orders.json',
      skill: 'skill.md',
      target: { baseURL: llm.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: llm.url, model: 'sim-optimizer', maxRetries: 2 },
      userSimulator: { baseURL: sim.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { epochs: 2, batchSize: 20, minibatchSize: 5, mergeBatchSize: 3, slowUpdateSamples: 10, targetConcurrency: 4, optimizerConcurrency: 4, maxTurns: 8, seed: 1 },
    }),
  );
});
afterAll(async () => {
  await llm.close();
  await sim.close();
});

const cli = (args: string[], env: Record<string, string>) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any', ...env });

describe('the simulated-user world in the runner (issue #31)', () => {
  it('asks for the simulator’s own key, then trains with the users played there to a skill that holds on the test items', async () => {
    const keyless = await cli(['train', '--config', 'skillwright.json', '--out', 'keyless'], {});
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('Set SKILLWRIGHT_USER_SIMULATOR_API_KEY');

    const r = await cli(['train', '--config', 'skillwright.json', '--out', 'out', '--json'], { SKILLWRIGHT_USER_SIMULATOR_API_KEY: SIM_KEY });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ status: 'completed' });
    // Every user turn was played by the simulator's own endpoint, with its own key.
    expect(sim.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length).toBeGreaterThan(100);
    expect(llm.log.filter((e) => e.stage === 'user_simulator')).toEqual([]);
    const bundle = readFileSync(join(dir, 'out', 'run-bundle.json'), 'utf8');
    const best = (JSON.parse(bundle) as { run: { state: { gate: { bestSkill: string } } } }).run.state.gate.bestSkill;
    const data = conversationDataset();
    expect(conversationHeldOut(START_SKILL, data)).toBeLessThan(0.5);
    expect(conversationHeldOut(best, data)).toBeGreaterThanOrEqual(0.95);
    for (const f of readdirSync(join(dir, 'out')).filter((f) => statSync(join(dir, 'out', f)).isFile()))
      expect(readFileSync(join(dir, 'out', f), 'utf8'), f).not.toContain(SIM_KEY);
  }, 600_000);
});
