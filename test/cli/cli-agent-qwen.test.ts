// Qwen Code, the published CLI (npm @qwen-code/qwen-code), as the target through its preset
// (issue #42): `"target": {"agent": "qwen", "model", "baseURL"}` — the runner starts the real
// binary per item with its own flags (--yolo, stream-json, --auth-type openai), the key in
// OPENAI_API_KEY, the skill as a SKILL.md Qwen Code lists by the skill's own description (beside
// its own qc-helper: the model loads the one whose description fits the task), and reads its
// event stream. Qwen Code prints a --yolo warning and a ripgrep notice before anything
// else and calls a refused key a "success" whose text is the API error: the run stops at once on
// it (exit 3, nothing scored), quoting the error — not the notices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText } from '../support/rule-world';
import { agentCli } from '../support/agent-clis';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;
let qwen: string;

beforeAll(async () => {
  qwen = agentCli('qwen');
  srv = await startLlmServer({ apiKey: 'sk-agent' });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-agent-qwen-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(10, 2)));
  writeFileSync(
    join(dir, 'skill.md'),
    `# Answers specimen code questions\n\nAnswer with the code only.\n\n${ruleText('amber')}\n`,
  );
  writeFileSync(
    join(dir, 'qwen.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { agent: 'qwen', model: 'sim-target', baseURL: srv.url, maxRetries: 1 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 0 },
      split: { ratio: [4, 3, 3], seed: 1 },
      run: { epochs: 1, batchSize: 4, minibatchSize: 2, targetConcurrency: 2 },
    }),
  );
}, 300_000); // the first run installs the CLIs from npm
afterAll(() => srv.close());

function cli(args: string[], key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: {
        PATH: `${dirname(qwen)}:${process.env.PATH ?? ''}`,
        HOME: dir,
        SKILLWRIGHT_TARGET_API_KEY: key,
        SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-agent',
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

describe('Qwen Code, the published CLI, as the target through its preset (issue #42)', () => {
  it('loads the skill it lists by its description and answers through it', async () => {
    const started = Date.now();
    const r = await cli(['eval', '--config', 'qwen.json', '--split', 'test', '--json'], 'sk-agent');
    expect(r.stderr).not.toMatch(/Stopped|problem/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { errors: number; hard: number; n: number };
    expect(report).toMatchObject({ errors: 0, n: 3 });
    expect(report.hard).toBeGreaterThan(0); // the amber items: the rule came from the skill Qwen Code loaded
    console.log(
      `qwen eval: hard ${report.hard.toFixed(2)}, ${targetCalls()} target calls, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }, 180_000);

  it('a refused key stops the run at once with the API error Qwen Code reports, not its notices; nothing scored', async () => {
    const before = targetCalls();
    const r = await cli(['train', '--config', 'qwen.json', '--out', 'refused'], 'sk-wrong');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('The agent CLI stopped: [API Error: 401 Incorrect API key provided.]');
    expect(r.stderr).not.toMatch(/YOLO|ripgrep/i);
    expect(targetCalls() - before).toBeLessThanOrEqual(2); // the calls in flight, once each
    const records = readFileSync(join(dir, 'refused', 'run.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(records.filter((l) => (JSON.parse(l) as { t: string }).t === 'rollout')).toEqual([]);
  }, 180_000);
});
