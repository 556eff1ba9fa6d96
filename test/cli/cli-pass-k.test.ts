// pass^k in the runner (issue #43): with several tries per test item, `train --json` gives each
// skill's pass^k beside its pass^1 and flip rate, the closing line says the best skill's, and the
// report in the out folder shows the same figures — on a target whose answers vary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { runCliIn } from '../support/cli-here';
import type { PassK } from '../../src/core/verdict/pass-k';

let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({ targetNoise: { miss: 0.25, guess: 0.1 }, noiseSeed: 2 });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-pass-k-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(60)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  const run = { epochs: 1, batchSize: 12, minibatchSize: 4, mergeBatchSize: 3, targetConcurrency: 4, optimizerConcurrency: 4 };
  const config = (extra: object) =>
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { ...run, ...extra },
    });
  writeFileSync(join(dir, 'thrice.json'), config({ testRepeats: 3 }));
  writeFileSync(join(dir, 'once.json'), config({}));
});
afterAll(() => srv.close());

const cli = (args: string[]) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

describe('pass^k in the runner (issue #43)', () => {
  it('gives each skill’s pass^k beside pass^1 and the flip rate in the JSON, the closing line and the report', async () => {
    const r = await cli(['train', '--config', 'thrice.json', '--out', 'thrice', '--json']);
    expect(r.code, r.stderr).not.toBe(1);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { status: string; testPassK: Record<string, PassK> | null };
    expect(summary.status).toBe('completed');
    const byskill = summary.testPassK!;
    expect(Object.keys(byskill).sort()).toEqual(['best', 'final', 'initial', 'none']);
    for (const [skill, p] of Object.entries(byskill)) {
      expect(p, skill).toMatchObject({ k: 3, items: 42, short: 0 }) // the default split's 42 test items;
      expect(p.passAtK, skill).toBeLessThanOrEqual(p.passAt1);
      expect(p.flipRate, skill).toBeGreaterThan(0);
    }
    const best = byskill.best;
    expect(best.passAtK).toBeLessThan(best.passAt1);
    expect(r.stderr).toContain(`best on test pass^1 ${best.passAt1.toFixed(3)}, pass^3 ${best.passAtK.toFixed(3)}, ${Math.round(best.flipRate * 100)}% of items flipped`);
    const html = readFileSync(join(dir, 'thrice', 'report.html'), 'utf8');
    expect(html).toContain(`<td>Best skill (exported)</td><td>`);
    expect(html).toContain(`<td>${pct(best.passAt1)}</td><td>${pct(best.passAtK)}</td><td>${pct(best.flipRate)}</td>`);
  });

  it('has no pass^k when each test item was tried once (a single answer’s default)', async () => {
    const r = await cli(['train', '--config', 'once.json', '--out', 'once', '--json']);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { status: string; testPassK: unknown };
    expect(summary).toMatchObject({ status: 'completed', testPassK: null });
    expect(r.stderr).not.toContain('pass^');
    expect(readFileSync(join(dir, 'once', 'report.html'), 'utf8')).not.toContain('pass^');
  });
});
