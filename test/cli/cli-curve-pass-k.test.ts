// pass^k on the learning curve in the runner (issue #43, `curvePassK`): `train --json` gives each
// learning-curve point validation scored its pass^1, pass^k and item flip rate, and report.html draws
// pass^k as a second series with its legend, readout and table columns — on a steady target, where
// every try of an item answers alike: pass^k is pass^1 and no item flips.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { runCliIn } from '../support/cli-here';
import type { CurvePoint } from '../../src/core/report/learning-curve';

let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer();
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-curve-pass-k-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(60)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  const run = { epochs: 1, batchSize: 12, minibatchSize: 4, mergeBatchSize: 3, targetConcurrency: 4 };
  writeFileSync(
    join(dir, 'run.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { ...run, curvePassK: true, testRepeats: 2, evalTest: false },
    }),
  );
});
afterAll(() => srv.close());

describe('pass^k on the learning curve in the runner', () => {
  it('gives every scored point pass^1, pass^k and the flip rate in --json and in the report', async () => {
    const r = await runCliIn(dir, ['train', '--config', 'run.json', '--out', 'out', '--json'], {
      SKILLWRIGHT_TARGET_API_KEY: 'sk-any',
    });
    expect(r.code, r.stderr).not.toBe(1);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { status: string; learningCurve: CurvePoint[] };
    expect(summary.status).toBe('completed');
    const scored = summary.learningCurve.filter((p) => p.score !== null);
    expect(scored.length).toBeGreaterThan(1);
    for (const p of scored) {
      expect(p.passK, p.label).toMatchObject({ k: 2, flipRate: 0, items: p.n, short: 0 });
      expect(p.passK!.passAtK, p.label).toBe(p.passK!.passAt1);
      expect(p.passK!.passAt1, p.label).toBeCloseTo(p.score!, 12);
    }
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect(html).toContain('■ pass^2: all 2 tries of an item pass');
    expect(html.match(/class="passk-mark"/g)).toHaveLength(scored.length);
    const last = scored.at(-1)!;
    expect(html).toContain(
      `${last.label}: pass^1 ${last.passK!.passAt1.toFixed(3)}, pass^2 ${last.passK!.passAtK.toFixed(3)}`,
    );
    expect(html).toContain('<th>pass^1</th><th>pass^2</th><th>Items flipped</th>');
  });
});
