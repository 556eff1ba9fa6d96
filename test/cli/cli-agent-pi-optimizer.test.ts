// pi, the published CLI (npm @mariozechner/pi-coding-agent), as the optimizer (issue #42 item 3):
// the preset {"agent": "pi"} with pi's own login — its models.json in its home folder, the way a
// person sets pi up — and no key of Skillwright's. Each optimizer call is one pi run; pi sends the
// optimizer's prompt to its model (the test server) under its own system prompt and tools, and
// its final answer, read from its JSON events, is the reply. One small step: pi costs ~2 CPU-s a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText } from '../support/rule-world';
import { agentCli } from '../support/agent-clis';
import { TOPICS } from '../../src/core/simulators/demo-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;
let pi: string;

beforeAll(async () => {
  pi = agentCli('pi');
  srv = await startLlmServer({ apiKey: 'sk-pi-login' });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-pi-optimizer-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(10, 2)));
  writeFileSync(join(dir, 'skill.md'), '# Specimens\n\nAnswer with the code only.\n');
  // pi's own setup in its home folder: the test server as a provider, the key written there.
  mkdirSync(join(dir, '.pi', 'agent'), { recursive: true });
  writeFileSync(
    join(dir, '.pi', 'agent', 'models.json'),
    JSON.stringify({
      providers: {
        skillwright: {
          baseUrl: srv.url,
          api: 'openai-completions',
          apiKey: 'sk-pi-login',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          // A price pi bills by (per million tokens): pi reports each run's cost, and the runner keeps it.
          models: [{ id: 'sim-optimizer', cost: { input: 2, output: 8, cacheRead: 0, cacheWrite: 0 } }],
        },
      },
    }),
  );
  writeFileSync(join(dir, '.pi', 'agent', 'settings.json'), JSON.stringify({ retry: { enabled: false } }));
  writeFileSync(
    join(dir, 'pi-optimizer.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      // A cheap target (the fake agent, no key either): pi's runs are the optimizer's alone.
      target: { command: [process.execPath, FAKE_AGENT], model: 'fake-agent' },
      optimizer: { agent: 'pi', model: 'skillwright/sim-optimizer', maxRetries: 1 },
      split: { ratio: [4, 3, 3], seed: 1 },
      run: { epochs: 1, batchSize: 4, minibatchSize: 2, testNoSkill: false },
    }),
  );
}, 300_000); // the first run installs pi from npm
afterAll(() => srv.close());

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      // No SKILLWRIGHT_* variable: pi is on PATH and signs in with its own config under HOME.
      env: { PATH: `${dirname(pi)}:${process.env.PATH ?? ''}`, HOME: dir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('pi as the optimizer (issue #42 item 3)', () => {
  it('trains one step with no key of Skillwright’s: pi’s final answer is the analysts’ JSON', async () => {
    const r = await cli(['train', '--config', 'pi-optimizer.json', '--out', 'trained', '--json']);
    expect(r.stderr).not.toMatch(/Stopped|problem|Set SKILLWRIGHT|no usable JSON/);
    expect(r.code, r.stderr).toBe(0); // a lift was accepted
    const summary = JSON.parse(r.stdout) as { testInitial: number; testBest: number; costUsd: number | null };
    expect(summary.testBest).toBeGreaterThan(summary.testInitial);
    // pi asked its model (the test server) with its own system prompt and tools, the prompt as its task.
    const asked = srv.log.filter((e) => e.stage === 'reflect_failure');
    expect(asked.length).toBeGreaterThan(0);
    expect(srv.log.length).toBeLessThanOrEqual(6); // two analysts and a merge here: a few pi runs
    expect(asked.every((e) => e.status === 200 && e.params?.includes('tools'))).toBe(true);
    const best = readFileSync(join(dir, 'trained', 'best-skill.md'), 'utf8');
    expect(TOPICS.some((t) => best.includes(ruleText(t)))).toBe(true);
    // pi's own token counts, not an estimate from characters.
    const bundle = JSON.parse(readFileSync(join(dir, 'trained', 'run-bundle.json'), 'utf8')) as {
      calls: { stage: string; usage: { promptTokens: number; completionTokens: number; reportedUsd?: number } }[];
    };
    const reflected = bundle.calls.filter((c) => c.stage === 'reflect_failure');
    expect(reflected.every((c) => c.usage.promptTokens > 1000)).toBe(true); // pi's system prompt and tools
    // pi's own cost of each run, at the price in its config, is the run's spend: no price was given here.
    for (const c of bundle.calls)
      expect(c.usage.reportedUsd).toBeCloseTo((c.usage.promptTokens * 2 + c.usage.completionTokens * 8) / 1e6, 9);
    const reported = bundle.calls.reduce((a, c) => a + (c.usage.reportedUsd ?? 0), 0);
    expect(summary.costUsd).toBeCloseTo(reported, 9);
    expect(reported).toBeGreaterThan(0);
  }, 300_000);
});
