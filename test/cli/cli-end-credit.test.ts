// Section credit at the end of a runner's run (issue #43 item 4, run.sectionCreditBudget): on the
// credit world through the test LLM server, `train --json` holds the best skill's section credit,
// the closing lines give a line per section and the skill's cost per task, the report in the out
// folder has the credit section, and the dry-run estimate prices it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { runCliIn } from '../support/cli-here';
import { CREDIT_SKILL, creditWorldItems } from '../support/credit-world';
import type { RunSectionCredit } from '../../src/engine/types';

let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({});
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-end-credit-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(creditWorldItems(24)));
  writeFileSync(join(dir, 'skill.md'), CREDIT_SKILL);
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      prices: { target: { input: 2, output: 8 }, optimizer: { input: 2, output: 8 } },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { epochs: 1, batchSize: 4, targetConcurrency: 4, seed: 11, sectionCreditBudget: 300 },
    }),
  );
});
afterAll(() => srv.close());

const cli = (args: string[]) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });

describe('section credit at the end of a runner’s run', () => {
  it('is in the JSON, the closing lines and the report', async () => {
    const r = await cli(['train', '--config', 'config.json', '--out', 'run', '--json']);
    expect(r.code, r.stderr).not.toBe(1);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { sectionCredit: RunSectionCredit };
    const c = summary.sectionCredit;
    if (!c.ok) throw new Error(c.reason);
    expect(c.budget).toBe(300);
    expect(c.calls).toBeLessThanOrEqual(300);
    expect(c.report.sections.map((s) => [s.title, s.verdict])).toEqual([
      ['Amber specimens', 'helps'],
      ['When unsure', 'harms'],
      ['Tone', 'nil'],
    ]);
    expect(c.report.skillCostUsd).toBeCloseTo((c.report.skillTokens * 2) / 1e6, 12);
    expect(r.stderr).toContain(
      `Section credit of the best skill: ${c.masks} masks on 24 validation items, ${c.calls} calls of 300`,
    );
    expect(r.stderr).toMatch(
      / {2}Amber specimens\s+\+18\.8 points \[\+\d+\.\d, \+\d+\.\d\] helps; [1-9]\d* tokens\/task, \$0\.0000\d+; \+[\d.]+ points per added cent/,
    );
    expect(r.stderr).toMatch(/The skill: \d+ prompt tokens per task \(\$0\.000\d+\)/);
    expect(r.stderr).toContain('Worth dropping (harmful, or no evidence of help): When unsure, Tone');
    const html = readFileSync(join(dir, 'run', 'report.html'), 'utf8');
    expect(html).toContain('<h2>Section credit of the best skill</h2>');
    expect(html).toMatch(/<td>Amber specimens<\/td><td>8–11<\/td><td>\+18\.8 points/);
    expect(html).toContain(`${c.calls} calls of a budget of 300`);
    expect(html).toContain('<td>Section credit (masked sections)</td>'); // its calls in the cost by stage
  });

  it('credits a finished run’s folder: its best skill on its dataset, as the run’s own credit did', async () => {
    const run = JSON.parse(
      (await cli(['train', '--config', 'config.json', '--out', 'run', '--json'])).stdout.trim().split('\n').at(-1)!,
    ) as { sectionCredit: RunSectionCredit };
    if (!run.sectionCredit.ok) throw new Error(run.sectionCredit.reason);
    const r = await cli(['credit', 'run', '--budget', '300', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Crediting the run in ${join(dir, 'run')} (`);
    expect(r.stderr).toMatch(/completed"?\)?: its (best|starting) skill/);
    const out = JSON.parse(r.stdout.trim()) as { sections: { title: string; effect: number; verdict: string }[] };
    // The same skill, items, seed and a deterministic target: the same effects.
    expect(out.sections.map((s) => [s.title, s.effect, s.verdict])).toEqual(
      run.sectionCredit.report.sections.map((s) => [s.title, s.effect, s.verdict]),
    );
    const both = await cli(['credit', 'run', '--config', 'config.json', '--budget', '300']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('is a run folder: its run names the settings, the dataset and the skill (its best), so --config cannot be given with it.');
  });

  it('is priced by the dry-run estimate', async () => {
    const r = await cli(['train', '--config', 'config.json', '--out', 'dry', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/sectionCredit\s+300 calls/);
  });
});
