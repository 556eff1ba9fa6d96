// An agent CLI as the optimizer (issue #42 item 3): every optimizer call is one run of the agent,
// its final answer the reply, parsed as any optimizer reply is — so a run with an agent CLI as both
// optimizer and target needs no key of Skillwright's at all. The fake agent (test/support/
// fake-agent.mjs) passes an optimizer's prompt to its own model, the test server, with its own
// login; the server's simulated optimizer reads the prompt as the harness's task. Its refused
// login stops the run at once, naming the optimizer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText } from '../support/rule-world';
import { TOPICS } from '../../src/core/simulators/demo-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({ apiKey: 'sk-agent-login' });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-agent-optimizer-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(10, 2)));
  writeFileSync(join(dir, 'skill.md'), '# Specimens\n\nAnswer with the code only.\n');
  const agent = (model: string) => ({ command: [process.execPath, FAKE_AGENT], model, maxRetries: 1 });
  writeFileSync(
    join(dir, 'agents.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: agent('fake-agent'),
      // The agent's own model and login: its config and its environment, never Skillwright's.
      optimizer: {
        ...agent('fake-optimizer'),
        env: { FAKE_AGENT_LLM_URL: srv.url, FAKE_AGENT_LLM_MODEL: 'sim-optimizer' },
        passEnv: ['FAKE_AGENT_LLM_KEY'],
      },
      split: { ratio: [4, 3, 3], seed: 1 },
      run: { epochs: 1, batchSize: 4, minibatchSize: 2, testNoSkill: false },
    }),
  );
});
afterAll(() => srv.close());

/** The runner with no SKILLWRIGHT_* variable at all: the agent's login is its own variable. */
function cli(args: string[], login: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', FAKE_AGENT_LLM_KEY: login },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const optimizerCalls = () => srv.log.filter((e) => e.stage !== 'target' && e.model === 'sim-optimizer');

describe('an agent CLI as the optimizer (issue #42 item 3)', () => {
  it('trains with no key of Skillwright’s: the agent’s reply is the optimizer’s, its edit accepted', async () => {
    const r = await cli(['train', '--config', 'agents.json', '--out', 'trained', '--json'], 'sk-agent-login');
    expect(r.stderr).not.toMatch(/Stopped|problem|Set SKILLWRIGHT/);
    expect(r.code, r.stderr).toBe(0); // a lift was accepted
    const summary = JSON.parse(r.stdout) as { testInitial: number; testBest: number; accepted: number };
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.testBest).toBeGreaterThan(summary.testInitial);
    // The analysts were the agent's model, asked through the agent: the rule it proposed is in the skill.
    const calls = optimizerCalls();
    expect(calls.map((e) => e.stage)).toContain('reflect_failure');
    expect(calls.every((e) => e.status === 200 && e.responseFormat === undefined)).toBe(true);
    const best = readFileSync(join(dir, 'trained', 'best-skill.md'), 'utf8');
    const rules = TOPICS.filter((t) => best.includes(ruleText(t)));
    expect(rules.length).toBeGreaterThan(0);
    const bundle = JSON.parse(readFileSync(join(dir, 'trained', 'run-bundle.json'), 'utf8')) as {
      calls: { stage: string; ok: boolean; raw: string }[];
    };
    const reflected = bundle.calls.filter((c) => c.stage === 'reflect_failure');
    expect(reflected.length).toBeGreaterThan(0);
    expect(reflected.every((c) => c.ok && c.raw.includes('```json'))).toBe(true); // repaired from the agent's text
  }, 180_000);

  it('a transient failure of the optimizer’s agent is asked again: the same run, the same skill', async () => {
    // Every first attempt at each optimizer prompt exits 1 with nothing said (a dropped connection).
    const state = join(dir, 'flaky-state');
    const config = JSON.parse(readFileSync(join(dir, 'agents.json'), 'utf8')) as { optimizer: { env: object } };
    config.optimizer.env = { ...config.optimizer.env, FAKE_AGENT_MODE: 'flaky', FAKE_AGENT_STATE: state };
    writeFileSync(join(dir, 'flaky.json'), JSON.stringify(config));
    const r = await cli(['train', '--config', 'flaky.json', '--out', 'flaky', '--json'], 'sk-agent-login');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/no usable JSON|failed after retries/);
    const tasks = readFileSync(join(state, 'runs.log'), 'utf8').trim().split('\n');
    expect(tasks.length).toBe(2 * new Set(tasks).size); // each prompt failed once, then answered
    expect(readFileSync(join(dir, 'flaky', 'best-skill.md'), 'utf8')).toBe(
      readFileSync(join(dir, 'trained', 'best-skill.md'), 'utf8'),
    );
  }, 180_000);

  it('doctor probes no agent CLI and asks for no key', async () => {
    const r = await cli(['doctor', '--config', 'agents.json'], '');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('target fake-agent: an agent CLI, not probed here');
    expect(r.stderr).toContain('optimizer fake-optimizer: an agent CLI, not probed here');
  }, 60_000);

  it('a refused login of the optimizer’s agent stops the run at once, naming the optimizer', async () => {
    const before = optimizerCalls().length;
    const r = await cli(['train', '--config', 'agents.json', '--out', 'refused'], 'sk-expired');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/The optimizer \(agent CLI node\): The agent CLI stopped: Error: 401 Incorrect API key/);
    // Fatal: no retry of the call, only the calls already in flight were made.
    const refused = srv.log.slice(before).filter((e) => e.status === 401);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThanOrEqual(3);
  }, 180_000);
});
