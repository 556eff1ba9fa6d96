// The runner against a model that takes function tools only with reasoning effort "none" (issue
// #44: before, the agentic run stopped with exit 3 and no config value could fix it): a train
// adapts once and completes; `doctor` names what the model accepts and `--write` keeps it in the
// config, after which no request is refused at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { runCliIn } from '../support/cli-here';
import { DOUBLE, LOOKUP, UNITS, toolWorldFile, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';

const ENV = { SKILLWRIGHT_TARGET_API_KEY: 'sk-doctor-key-123' };
const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;

/** The runner in a process of its own: nothing learned by this one's clients reaches it. */
function spawned(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...ENV } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stderr }));
  });
}
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({
    agentPolicy: toolWorldPolicy,
    optimizerHook: toolWorldOptimizer,
    efforts: ['none', 'low', 'medium', 'high', 'xhigh', 'max'],
    toolsOnlyWithEffortNone: true,
    rejectsTemperature: true,
  });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-doctor-'));
  writeFileSync(join(dir, 'data.json'), toolWorldFile(24));
  writeFileSync(
    join(dir, 'skill.md'),
    `# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${DOUBLE}\n${UNITS}\n`,
  );
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', temperature: 0, reasoningEffort: 'low', maxRetries: 1 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', reasoningEffort: 'medium', maxRetries: 1 },
      run: { epochs: 1, batchSize: 8, minibatchSize: 4, maxTurns: 4, targetConcurrency: 2, optimizerConcurrency: 2 },
    }),
  );
});
afterAll(() => srv.close());

describe('the runner on a model that takes tools only with effort none', () => {
  it('train adapts once, says so, and completes', async () => {
    const r = await runCliIn(dir, ['train', '--config', 'skillwright.json', '--out', 'first'], ENV);
    expect([0, 100], r.stderr).toContain(r.code);
    expect(r.stderr).toContain('The target model sim-target takes function tools only with reasoning effort none');
    expect(r.stderr).toContain('The target model sim-target refused temperature');
  });

  it('doctor names what each model accepts; --write keeps it, and a run then sends nothing refused', async () => {
    const said = await runCliIn(dir, ['doctor', '--config', 'skillwright.json'], ENV);
    expect(said.code, said.stderr).toBe(0);
    expect(said.stderr).toMatch(/target sim-target: \d+ ms/);
    expect(said.stderr).toContain('  temperature: refused (the model’s default is used)');
    expect(said.stderr).toContain('  reasoning efforts: none, low, medium, high, xhigh, max');
    expect(said.stderr).toContain('  function tools: only with reasoning effort none (agent turns are sent so)');
    expect(said.stderr).toContain('  structured output: json_schema');
    expect(said.stderr).toContain('skillwright doctor --config skillwright.json --write');
    const before = readFileSync(join(dir, 'skillwright.json'), 'utf8');
    expect((await runCliIn(dir, ['doctor', '--config', 'skillwright.json', '--write'], ENV)).code).toBe(0);
    const kept = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8'));
    expect(kept.target.capabilities).toMatchObject({ model: 'sim-target', toolEfforts: ['none'], temperature: false });
    expect(kept.optimizer.capabilities).toMatchObject({ model: 'sim-optimizer', jsonMode: 'json_schema' });
    // Everything the person wrote is still there.
    const { target, optimizer, ...rest } = JSON.parse(before);
    expect(kept).toMatchObject(rest);
    expect(kept.target).toMatchObject(target);
    expect(kept.optimizer).toMatchObject(optimizer);
    // A fresh process reads the kept capabilities: its first request to each model is already right.
    const from = srv.log.length;
    const r = await spawned(['train', '--config', 'skillwright.json', '--out', 'second']);
    expect([0, 100], r.stderr).toContain(r.code);
    expect(srv.log.slice(from).filter((e) => e.status !== 200)).toEqual([]);
  });

  it('refuses an effort, a wire or capabilities it does not know, naming the field', async () => {
    const bad = (target: Record<string, unknown>) => {
      writeFileSync(
        join(dir, 'bad.json'),
        JSON.stringify({
          target: { baseURL: srv.url, model: 'm', ...target },
          optimizer: { baseURL: srv.url, model: 'm' },
        }),
      );
      return runCliIn(dir, ['doctor', '--config', 'bad.json'], ENV);
    };
    expect((await bad({ reasoningEffort: 'extreme' })).stderr).toMatch(
      /"target.reasoningEffort" must be "" .* none, minimal, low, medium, high, xhigh, max/,
    );
    expect((await bad({ api: 'grpc' })).stderr).toMatch(/"target.api" must be one of chat, responses/);
    // A role that cannot be reached is named, and the exit code says so (2: the person's to fix).
    const closed = await startLlmServer({});
    await closed.close();
    const unreachable = await bad({ baseURL: closed.url });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/^target m: failed — /m);
    const r = await bad({ capabilities: { api: 'chat' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"target.capabilities" must name its "baseURL" and "model"/);
  });
});
