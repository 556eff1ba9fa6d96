// Workspace tasks (issue #42 item 4): items carry a folder copied into each agent's working folder
// and a check run there afterwards. The fake agent (test/support/fake-agent.mjs) applies the fixes
// its skill states; the check decides the score, its output reaches the analyst, a check that
// hangs fails as "timed out" (never an error row), and nothing is left or written outside; a
// resumed run finds the workspaces where `train` read the dataset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
const RULE = 'In greet.mjs, replace `Hi` with `Hello`.';
const BUGGY = "export const greeting = 'Hi';\n";
let srv: LlmTestServer;
let dir: string;

const CHECK = `import { greeting } from './greet.mjs';
const name = process.argv[2];
const got = greeting + ', ' + name + '!';
if (got !== 'Hello, ' + name + '!') {
  console.log('expected "Hello, ' + name + '!" but got "' + got + '"');
  process.exit(1);
}
console.log('ok');
`;

/** The analyst proposes the fix only when the check's own words reach it. */
function optimizerHook(stage: string, _system: string, user: string): unknown {
  if (stage === 'reflect_success') return { batch_size: 0, success_patterns: [], patch: { reasoning: '-', edits: [] } };
  if (stage !== 'reflect_failure' || !/CHECK=0: `node check\.mjs \w+` failed .*expected "Hello, /.test(user))
    return undefined;
  return { batch_size: 1, failure_summary: [], patch: { reasoning: 'the check wants Hello', edits: [{ op: 'append', content: RULE }] } };
}

beforeAll(async () => {
  srv = await startLlmServer({ latencyMs: 5, keepPrompts: true, optimizerHook });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-workspace-'));
  mkdirSync(join(dir, 'tasks', 'greet'), { recursive: true });
  writeFileSync(join(dir, 'tasks', 'greet', 'greet.mjs'), BUGGY);
  writeFileSync(join(dir, 'tasks', 'greet', 'check.mjs'), CHECK);
  writeFileSync(join(dir, 'tasks', 'greet', 'hang.mjs'), 'setInterval(() => {}, 1000);\n');
  const task = (id: string, split: string, check: unknown) => ({ id, question: 'Make the greeting test pass.', workspace: 'tasks/greet', check, split });
  writeFileSync(
    join(dir, 'data.json'),
    JSON.stringify([
      task('ada', 'train', 'node check.mjs Ada'),
      task('bob', 'val', 'node check.mjs Bob'),
      task('slow', 'test', { command: 'node hang.mjs', timeout_s: 1 }),
    ]),
  );
  writeFileSync(join(dir, 'skill.md'), '# Greeter\n\nDo what the task asks.\n');
  writeFileSync(
    join(dir, 'ws.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { command: [process.execPath, FAKE_AGENT], skillFile: 'AGENTS.md', model: 'fake-agent' },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      prices: { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } },
      run: { epochs: 1, batchSize: 1, minibatchSize: 1, mergeBatchSize: 2, slowUpdateSamples: 1, targetConcurrency: 2, testRepeats: 1 },
    }),
  );
});
afterAll(() => srv.close());

/** Run the runner with its own temporary folder, so the test sees every working folder it made. */
function cli(args: string[]): Promise<{ code: number | null; stderr: string; tmp: string }> {
  const tmp = mkdtempSync(join(dir, 'tmp-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-optimizer' },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr, tmp }));
  });
}

interface Row {
  itemId: string;
  phase: string;
  status: string;
  hard: number;
  failReason?: string;
}

describe('workspace tasks with a check (issue #42 item 4)', () => {
  it('trains on the check’s verdict: its output reaches the analyst, a hang fails as timed out, nothing is left', async () => {
    // Paused by its cap at once, then resumed: the resumed run finds the workspaces where train read the dataset.
    const paused = await cli(['train', '--config', 'ws.json', '--out', 'out', '--max-usd', '0.000001']);
    expect(paused.code, paused.stderr).toBe(3);
    const r = await cli(['resume', '--out', 'out', '--max-usd', '1000']);
    expect(r.stderr).toContain('validation 0.000 → 1.000');
    expect(r.code, r.stderr).toBe(100); // no lift on test: its one item's check never ends
    expect(readFileSync(join(dir, 'out', 'best-skill.md'), 'utf8')).toContain(RULE);
    const rows = (JSON.parse(readFileSync(join(dir, 'out', 'run-bundle.json'), 'utf8')) as { rollouts: Row[] }).rollouts;
    const of = (id: string) => rows.filter((x) => x.itemId === id);
    // Before the fix the check failed, in its own words; after it, it passed.
    expect(of('ada').some((x) => x.status === 'ok' && x.hard === 0 && /expected "Hello, Ada!" but got "Hi, Ada!"/.test(x.failReason ?? ''))).toBe(true);
    expect(of('bob').some((x) => x.status === 'ok' && x.hard === 1)).toBe(true);
    // The analyst read the check's output.
    const analyst = srv.log.filter((e) => e.stage === 'reflect_failure').map((e) => e.user ?? '');
    expect(analyst.some((u) => u.includes('CHECK=0: `node check.mjs Ada` failed with exit code 1: expected "Hello, Ada!"'))).toBe(true);
    // A check that hangs is a failed check that says so, never an error row.
    const slow = of('slow');
    expect(slow.length).toBeGreaterThan(0);
    expect(slow.every((x) => x.status === 'ok' && x.hard === 0 && /`node hang\.mjs` timed out after 1 s/.test(x.failReason ?? ''))).toBe(true);
    // Every working folder removed; the task's own folder untouched.
    expect(readdirSync(r.tmp)).toEqual([]);
    expect(readdirSync(paused.tmp)).toEqual([]);
    expect(readFileSync(join(dir, 'tasks', 'greet', 'greet.mjs'), 'utf8')).toBe(BUGGY);
    expect(readdirSync(join(dir, 'tasks', 'greet')).sort()).toEqual(['check.mjs', 'greet.mjs', 'hang.mjs']);
  }, 120_000);
});
