// `skillwright credit` (issue #43 item 4): on the credit world through the test LLM server, the
// runner prints each planted section's effect with its interval, the skill's cost per task, and
// with --drop the gate's verdict on dropping the sections that earn nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { runCliIn } from '../support/cli-here';
import { CREDIT_SKILL, creditWorldItems, plantedEffects } from '../support/credit-world';
import type { CreditReport } from '../../src/core/verdict/section-credit';

let srv: LlmTestServer;
let dir: string;
const items = creditWorldItems(24);

beforeAll(async () => {
  srv = await startLlmServer({});
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-credit-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(items));
  writeFileSync(join(dir, 'skill.md'), CREDIT_SKILL);
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      prices: { target: { input: 2, output: 8 } },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { targetConcurrency: 8, seed: 3 },
    }),
  );
});
afterAll(() => srv.close());

const cli = (args: string[]) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });

describe('skillwright credit', () => {
  it('recovers the planted sections, prices them, and puts the idle and harmful ones to the gate', async () => {
    const planted = plantedEffects(
      CREDIT_SKILL,
      items.filter((i) => i.split === 'val'),
    );
    const r = await cli(['credit', 'config.json', '--budget', '200', '--drop', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim()) as CreditReport & {
      calls: number;
      drop: { sections: string[]; accepted: boolean; candidate: string; current: number; score: number };
    };
    expect(out.calls).toBeLessThanOrEqual(200);
    out.sections.forEach((s, j) => {
      expect(s.low!, s.title).toBeLessThanOrEqual(planted[j]);
      expect(s.high!, s.title).toBeGreaterThanOrEqual(planted[j]);
    });
    expect(out.sections.map((s) => s.verdict)).toEqual(['helps', 'harms', 'nil']);
    expect(out.skillCostUsd).toBeCloseTo((out.skillTokens * 2) / 1e6, 12);
    expect(out.sections[0].liftPerCent).toBeGreaterThan(0);
    expect(out.drop).toMatchObject({ sections: ['When unsure', 'Tone'], accepted: true, current: 0.5, score: 1 });
    expect(out.drop.candidate).toContain('## Amber specimens');
    expect(r.stderr).toMatch(/Amber specimens\s+\+\d+\.\d points \[\+\d+\.\d, \+\d+\.\d\] helps; \d+ tokens\/task/);
    expect(r.stderr).toContain('The gate accepts dropping When unsure, Tone: validation 50.0% → 100.0%');
  });

  it('takes the drop of a section that earns nothing as no worse and cheaper, saying so', async () => {
    // Without the harmful section, only the neutral one is worth dropping: its drop ties on validation.
    writeFileSync(join(dir, 'no-harm.md'), CREDIT_SKILL.replace(/## When unsure[\s\S]*?(?=## Tone)/, ''));
    const r = await cli(['credit', 'config.json', '--skill', 'no-harm.md', '--budget', '200', '--drop', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim()) as {
      drop: { sections: string[]; accepted: boolean; basis: string; tokensSaved: number; current: number; score: number };
    };
    expect(out.drop).toMatchObject({ sections: ['Tone'], accepted: true, basis: 'no_worse_cheaper', current: 1, score: 1 });
    expect(out.drop.tokensSaved).toBeGreaterThan(8);
    expect(r.stderr).toMatch(
      /The gate accepts dropping Tone: validation 100\.0% → 100\.0% \(\d+ calls\): no worse \(a \d+ % chance it knows fewer validation items \(at most 30 %\)\) and cheaper, 1\d prompt tokens per task fewer; its text is in the --json output\./,
    );
  });

  it('says which budget would do when the one given is too small, spending nothing', async () => {
    srv.log.length = 0;
    const r = await cli(['credit', '--config', 'config.json', '--budget', '5']);
    expect(r.code).toBe(2); // a config problem: nothing was spent
    expect(r.stderr).toContain('A budget of 5 calls is too small for 3 section(s)');
    expect(srv.log).toHaveLength(0);
    expect((await cli(['credit', 'config.json'])).stderr).toContain('--budget N is required');
  });
});
