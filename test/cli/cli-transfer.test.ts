// Transfer in the runner (issue #42 item 5): `"confirm": [target…]` scores the starting and the
// best skill on test under each other target after training; the closing lines, `--json` and
// report.html show the lift per target with its interval and flag a ranking flip. The world is
// built for a flip: under sim-target a skill helps only by the rules it states (the rule world);
// sim-contrarian knows every code by itself and is thrown by any rule it is given.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { contrarian } from '../support/contrarian';
import { runCliIn } from '../support/cli-here';

let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({ models: ['sim-target', 'sim-optimizer', 'sim-contrarian'], modelHook: contrarian });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-transfer-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(36, 4)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      split: { ratio: [1, 1, 1] },
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      confirm: [{ baseURL: srv.url, model: 'sim-contrarian', maxRetries: 2 }],
      run: { epochs: 1, batchSize: 6, minibatchSize: 3, mergeBatchSize: 3, testNoSkill: false },
    }),
  );
});
afterAll(() => srv.close());

const cli = (args: string[]) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });

interface TransferJson {
  targets: {
    target: string;
    trained: boolean;
    testInitial: number;
    testBest: number;
    lift: number;
    liftInterval: [number, number];
  }[];
  flip: boolean;
  warning: string | null;
}

describe('transfer in the runner (issue #42 item 5)', () => {
  it('shows each target’s lift with its interval and flags the flip in the JSON, the closing lines and the report', async () => {
    const r = await cli(['train', '--config', 'skillwright.json', '--out', 'out', '--json']);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      status: string;
      transfer: TransferJson | null;
    };
    expect(summary.status, r.stderr).toBe('completed');
    const t = summary.transfer!;
    expect(t.targets.map((x) => [x.target, x.trained])).toEqual([
      ['sim-target', true],
      ['sim-contrarian', false],
    ]);
    const [trained, other] = t.targets;
    // The skill helps under the model it was trained on, surely…
    expect(trained.testBest).toBeGreaterThan(trained.testInitial);
    expect(trained.liftInterval[0]).toBeGreaterThan(0);
    // …and hurts under the other, surely.
    expect(other.testInitial).toBe(1);
    expect(other.testBest).toBeLessThan(other.testInitial);
    expect(other.lift).toBeLessThan(0);
    expect(other.liftInterval[1]).toBeLessThan(0);
    expect(t.flip).toBe(true);
    expect(t.warning).toContain('Ranking flip: the best skill scores below the starting skill on sim-contrarian');

    expect(r.stderr).toContain('Transfer, the best skill over the starting one under each target:');
    expect(r.stderr).toMatch(/sim-target \(trained on\): test 0\.\d+ → \d\.\d+, lift \+/);
    expect(r.stderr).toContain('sim-contrarian: test 1.000 → ');
    expect(r.stderr).toContain('Ranking flip');

    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('<h2>Transfer: the lift under each target</h2>');
    expect(html).toContain('<td>sim-target (trained on)</td>');
    expect(html).toContain('<td>sim-contrarian</td><td>100.0%</td>');
    expect(html).toContain('⚠ Ranking flip');
    expect(html).toContain('a real loss');

    // Its calls are the run's: counted under their own stage, every one the server answered.
    const asked = srv.log.filter((e) => e.model === 'sim-contrarian' && e.status === 200).length;
    expect(asked).toBeGreaterThan(0);
    expect(html).toContain(`<td>Test on confirming targets</td><td>${asked}</td>`);
  });

  it('prices the confirming target’s calls in the estimate', async () => {
    const r = await cli(['estimate', '--config', 'skillwright.json', '--json']);
    const e = JSON.parse(r.stdout.trim()) as { stages: Record<string, { calls: number }> };
    // The starting and the best skill on the 12 test items, once each.
    expect(e.stages.confirm.calls).toBe(24);
    expect(r.stderr).toMatch(/confirm\s+24 calls/);
  });

  it('doctor probes each confirming model target as it does the target and names an agent CLI it does not probe', async () => {
    writeFileSync(
      join(dir, 'doctor.json'),
      JSON.stringify({
        ...JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8')),
        confirm: [
          { baseURL: srv.url, model: 'sim-contrarian', maxRetries: 0 },
          { command: [process.execPath, 'agent.mjs', '{task}'], skillFile: 'AGENTS.md', task: 'argument' },
          { baseURL: srv.url, model: 'sim-nowhere', maxRetries: 0 },
        ],
      }),
    );
    const before = srv.log.filter((e) => e.model === 'sim-contrarian').length;
    const r = await cli(['doctor', '--config', 'doctor.json', '--json']);
    expect(r.stderr).toMatch(/confirm\[0\] sim-contrarian: \d+ ms/);
    expect(r.stderr).toMatch(/confirm\[1\] \S+: an agent CLI, not probed here/);
    expect(r.stderr).toMatch(/confirm\[2\] sim-nowhere: failed — /);
    expect(srv.log.filter((e) => e.model === 'sim-contrarian').length).toBeGreaterThan(before);
    const checks = JSON.parse(r.stdout.trim()) as { confirm?: number; ok: boolean; model: string }[];
    expect(checks.filter((c) => c.confirm !== undefined).map((c) => [c.confirm, c.model, c.ok])).toEqual([
      [0, 'sim-contrarian', true],
      [2, 'sim-nowhere', false],
    ]);
    // A confirming target that does not answer is a config problem, as a target's is.
    expect(r.code).toBe(2);
  });

  it('bills a confirming target at its own price, in the estimate and in the run', async () => {
    const base = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8')) as Record<string, unknown>;
    const confirm = [
      { baseURL: srv.url, model: 'sim-contrarian', maxRetries: 2, price: { input: 1000, output: 1000 } },
    ];
    const prices = { target: { input: 1, output: 1 }, optimizer: { input: 0, output: 0 } };
    writeFileSync(join(dir, 'own-price.json'), JSON.stringify({ ...base, prices, confirm }));
    writeFileSync(join(dir, 'target-price.json'), JSON.stringify({ ...base, prices }));
    type Est = { stages: Record<string, { calls: number; costUsd: number }> };
    const own = JSON.parse((await cli(['estimate', '--config', 'own-price.json', '--json'])).stdout.trim()) as Est;
    const plain = JSON.parse((await cli(['estimate', '--config', 'target-price.json', '--json'])).stdout.trim()) as Est;
    expect(own.stages.confirm.calls).toBe(plain.stages.confirm.calls);
    expect(own.stages.confirm.costUsd).toBeCloseTo(plain.stages.confirm.costUsd * 1000, 6);
    expect(own.stages.test.costUsd).toBeCloseTo(plain.stages.test.costUsd, 9);

    const r = await cli(['train', '--config', 'own-price.json', '--out', 'priced', '--json']);
    expect(r.code, r.stderr).not.toBe(2);
    type Usage = Record<string, { promptTokens: number; completionTokens: number; costUsd: number }>;
    const bundle = JSON.parse(readFileSync(join(dir, 'priced', 'run-bundle.json'), 'utf8')) as {
      run: { state: { summary: { usage: Usage } } };
    };
    const usage = bundle.run.state.summary.usage;
    const tokens = (u: Usage[string]) => u.promptTokens + u.completionTokens;
    expect(tokens(usage.confirm)).toBeGreaterThan(0);
    expect(usage.confirm.costUsd).toBeCloseTo((tokens(usage.confirm) * 1000) / 1e6, 6);
    expect(usage.test.costUsd).toBeCloseTo(tokens(usage.test) / 1e6, 9);
  });
});
