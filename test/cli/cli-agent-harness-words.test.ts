// An agent CLI's failures read from its own words (issue #42): the runner starts a process that
// replays what a real CLI printed against the test server (test/fixtures/agent-streams/), so the
// words, the notices before them and the exit codes are the real binaries'. A refused key stops
// the run at once (exit 3, nothing scored), quoting the error — not the notices Gemini CLI prints
// first; a rate limit Codex gave up on is asked again, never fatal and never scored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({ latencyMs: 5 });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-harness-words-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(12, 4)));
  writeFileSync(join(dir, 'skill.md'), '# Specimens\n\nAnswer with the code only.\n');
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: {
        command: [process.execPath, FAKE_AGENT],
        model: 'replay',
        maxRetries: 2,
        passEnv: ['FAKE_AGENT_MODE', 'FAKE_AGENT_REPLAY', 'FAKE_AGENT_STATE'],
      },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer' },
      split: { ratio: [5, 3, 2], seed: 1 },
      run: { epochs: 1, batchSize: 4, minibatchSize: 2, targetConcurrency: 1 },
    }),
  );
});
afterAll(() => srv.close());

function cli(args: string[], replay: string, state: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        TMPDIR: mkdtempSync(join(dir, 'tmp-')),
        SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-optimizer',
        FAKE_AGENT_MODE: 'replay',
        FAKE_AGENT_REPLAY: replay,
        FAKE_AGENT_STATE: join(dir, state),
      },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const runs = (state: string) =>
  readFileSync(join(dir, state, 'runs.log'), 'utf8')
    .trim()
    .split('\n').length;
const rollouts = (out: string) =>
  readFileSync(join(dir, out, 'run.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter((l) => (JSON.parse(l) as { t: string }).t === 'rollout');

describe('an agent CLI’s own words (issue #42)', () => {
  it('OpenAI’s “401 Incorrect API key provided.” as Qwen Code prints it stops the run at once', async () => {
    const r = await cli(['train', '--config', 'agent.json', '--out', 'qwen-401'], 'qwen-401-text', 'qwen-state');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('[API Error: 401 Incorrect API key provided.]');
    expect(runs('qwen-state')).toBe(1); // fatal at once: not asked again
    expect(rollouts('qwen-401')).toEqual([]); // nothing scored
  }, 120_000);

  it('a refused Gemini key is quoted, not the YOLO and ripgrep notices printed before it', async () => {
    const r = await cli(['train', '--config', 'agent.json', '--out', 'gemini-400'], 'gemini-400-key', 'gemini-state');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('API key not valid. Please pass a valid API key.');
    expect(r.stderr).not.toMatch(/YOLO mode|Ripgrep/);
    expect(runs('gemini-state')).toBe(1);
  }, 120_000);

  it('a rate limit Codex gave up on is asked again and never scored, its metadata warning no fatal error', async () => {
    const r = await cli(['eval', '--config', 'agent.json', '--split', 'val', '--json'], 'codex-429', 'codex-state');
    expect(r.code).toBe(3); // paused after the retries, nothing scored
    expect(r.stderr).toMatch(/failed 3 times \(last: exit code 1: .*429 Too Many Requests/);
    expect(r.stderr).not.toMatch(/The agent CLI stopped/);
    expect(runs('codex-state')).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
