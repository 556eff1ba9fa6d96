// A published agent CLI as the target (issue #42): the real pi binary (npm
// @mariozechner/pi-coding-agent), started by the runner once per item through its agent-CLI
// target, pointed at the test server by its own models.json (the key in a variable), answers
// through the skill it read from AGENTS.md. A refused
// key stops the run at once with pi's words for OpenAI's 401; a server that never answers runs
// into the time limit, is asked again, then the run pauses; nothing of either is scored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText } from '../support/rule-world';
import { agentCli } from '../support/agent-clis';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;
let pi: string;

beforeAll(async () => {
  pi = agentCli('pi');
  srv = await startLlmServer({ apiKey: 'sk-agent' });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-agent-pi-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(10, 2)));
  writeFileSync(join(dir, 'skill.md'), `# Specimens\n\nAnswer with the code only.\n\n${ruleText('amber')}\n`);
  // pi's own configuration: the test server as a provider whose key is read from a variable,
  // and no retries of its own (the runner's are under test).
  mkdirSync(join(dir, 'pi'));
  writeFileSync(
    join(dir, 'pi', 'models.json'),
    JSON.stringify({
      providers: {
        skillwright: {
          baseUrl: srv.url,
          api: 'openai-completions',
          apiKey: 'PI_TEST_API_KEY',
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: 'sim-target' }],
        },
      },
    }),
  );
  writeFileSync(
    join(dir, 'pi', 'settings.json'),
    JSON.stringify({ retry: { enabled: false, provider: { maxRetries: 0 } } }),
  );
}, 300_000); // the first run installs pi from npm
afterAll(() => srv.close());

function config(name: string, target: Record<string, unknown>, concurrency = 2): string {
  writeFileSync(
    join(dir, name),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: {
        // The skill as AGENTS.md, which pi puts in its system prompt, by a hand-written command
        // (the preset, below, writes a SKILL.md pi lists by the skill's own description).
        command: [pi, '-p', '--no-session', '--model', 'skillwright/sim-target'],
        model: 'pi',
        // pi's own folder and key (the runner passes nothing else but the basics, issue #39 M2).
        passEnv: ['PI_CODING_AGENT_DIR', 'PI_OFFLINE', 'PI_TEST_API_KEY'],
        ...target,
      },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 0 },
      split: { ratio: [4, 3, 3], seed: 1 },
      run: { epochs: 1, batchSize: 4, minibatchSize: 2, targetConcurrency: concurrency },
    }),
  );
  return name;
}

function cli(
  args: string[],
  key: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        PI_CODING_AGENT_DIR: join(dir, 'pi'),
        PI_OFFLINE: '1',
        PI_TEST_API_KEY: key,
        SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-agent',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const targetCalls = () => srv.log.filter((e) => e.stage === 'target').length;

describe('pi, the published CLI, as the target (issue #42)', () => {
  it('reads the skill where pi reads context files and answers through it', async () => {
    const r = await cli(['eval', '--config', config('eval.json', {}), '--split', 'test', '--json'], 'sk-agent');
    expect(r.stderr).not.toMatch(/Stopped|problem/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { errors: number; hard: number };
    expect(report.errors).toBe(0);
    expect(report.hard).toBeGreaterThan(0); // the amber items: the rule came from AGENTS.md
  }, 180_000);

  it('a refused key stops the run at once with pi’s words for OpenAI’s 401, nothing scored', async () => {
    const before = targetCalls();
    const r = await cli(['train', '--config', config('train.json', {}), '--out', 'refused'], 'sk-wrong');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('401 Incorrect API key provided.');
    expect(srv.log.filter((e) => e.status === 401).length).toBeLessThanOrEqual(2); // the calls in flight, once each
    expect(targetCalls() - before).toBeLessThanOrEqual(2);
    const records = readFileSync(join(dir, 'refused', 'run.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(records.filter((l) => (JSON.parse(l) as { t: string }).t === 'rollout')).toEqual([]);
  }, 180_000);

  it('a server that never answers: the time limit, asked again, then the run pauses', async () => {
    srv.set({ faults: [{ kind: 'timeout', stage: 'target' }] });
    try {
      const r = await cli(
        ['eval', '--config', config('hang.json', { timeoutMs: 8000, maxRetries: 1 }, 3), '--split', 'test', '--json'],
        'sk-agent',
      );
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/failed 2 times \(last: it did not finish within 8 s\)/);
      expect(r.stderr).toMatch(/not scored as wrong answers/);
    } finally {
      srv.set({ faults: [] });
    }
  }, 180_000);

  it('the preset {"agent": "pi"}: pi finds the skill by its description, its events are the trajectory, it trains', async () => {
    // Nothing of pi's set up by hand: the preset writes pi's models.json (the key in a variable),
    // the skill as a SKILL.md whose description is the skill's own, and reads pi's JSON events.
    writeFileSync(join(dir, 'lean.md'), '# Specimens\n\nAnswer with the code only.\n');
    writeFileSync(
      join(dir, 'preset.json'),
      JSON.stringify({
        data: 'data.json',
        skill: 'lean.md',
        target: { agent: 'pi', model: 'sim-target', baseURL: srv.url, maxRetries: 1 },
        optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 0 },
        split: { ratio: [4, 3, 3], seed: 1 },
        // One step, no no-skill test: pi costs ~2 CPU-s a run (the suite's time).
        run: { epochs: 1, batchSize: 4, minibatchSize: 2, targetConcurrency: 2, testNoSkill: false },
      }),
    );
    const started = Date.now();
    const r = await cli(['train', '--config', 'preset.json', '--out', 'preset', '--json'], 'unused', {
      PATH: `${dirname(pi)}:${process.env.PATH ?? ''}`,
      SKILLWRIGHT_TARGET_API_KEY: 'sk-agent',
    });
    expect(r.stderr).not.toMatch(/Stopped|problem/);
    expect(r.code, r.stderr).toBe(0); // a lift was accepted
    const summary = JSON.parse(r.stdout) as { testInitial: number; testBest: number; accepted: number };
    expect(summary.testBest).toBeGreaterThan(summary.testInitial);
    console.log(
      `pi preset: held-out ${summary.testInitial.toFixed(2)} → ${summary.testBest.toFixed(2)}, ${targetCalls()} target calls so far, ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const bundle = JSON.parse(readFileSync(join(dir, 'preset', 'run-bundle.json'), 'utf8')) as {
      rollouts: {
        status: string;
        cached: boolean;
        usage: { promptTokens: number };
        trajectory?: { kind: string; name?: string; arguments?: string }[];
      }[];
    };
    const ok = bundle.rollouts.filter((row) => row.status === 'ok' && !row.cached);
    expect(ok.length).toBeGreaterThan(0);
    // Every answer came through pi's events: pi's read of the listed SKILL.md, and its real token counts.
    for (const row of ok) {
      expect(row.trajectory?.find((e) => e.kind === 'tool' && e.name === 'read')?.arguments).toMatch(
        /\.agents\/skills\/specimens\/SKILL\.md/,
      );
      expect(row.usage.promptTokens).toBeGreaterThan(1000); // pi's system prompt and tools, as pi counted them
    }
  }, 300_000);
});
