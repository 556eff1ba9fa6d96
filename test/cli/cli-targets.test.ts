// Several targets in the runner (issue #42 item 5): `"targets": [target…]` makes the gate accept a
// candidate only if no other target finds it worse on validation. The world is built so that every
// useful skill helps one target and hurts the other: under sim-target a skill helps only by the
// rules it states (the rule world); sim-contrarian knows every code by itself and is thrown by any
// rule it is given. With it among the targets nothing the optimizer writes may be accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { expectedAnswer, makeWorldItems, parseQuestion } from '../support/rule-world';
import { runCliIn } from '../support/cli-here';

let srv: LlmTestServer;
let dir: string;

/** A model that knows the codes without a skill and answers wrongly once a skill states a rule. */
function contrarian(model: string, system: string, user: string): string | undefined {
  if (model !== 'sim-contrarian') return undefined;
  const q = parseQuestion(user);
  if (!q) return 'I do not know.';
  return /use the prefix/.test(system) ? 'unknown' : expectedAnswer(q.topics, q.specimen);
}

const run = { epochs: 1, batchSize: 6, minibatchSize: 3, mergeBatchSize: 3, testNoSkill: false };

function config(file: string, extra: Record<string, unknown>): void {
  writeFileSync(
    join(dir, file),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      split: { ratio: [1, 1, 1] },
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run,
      ...extra,
    }),
  );
}

beforeAll(async () => {
  srv = await startLlmServer({ models: ['sim-target', 'sim-optimizer', 'sim-contrarian'], modelHook: contrarian });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-targets-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(36, 4)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  config('one.json', {});
  config('two.json', { targets: [{ baseURL: srv.url, model: 'sim-contrarian', maxRetries: 2 }] });
});
afterAll(() => srv.close());

const cli = (args: string[]) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });
const last = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

interface StepLine {
  t: string;
  v: { step: number; action: string; refusedBy?: string; usage: Record<string, { calls: number }> };
}

/** The step records the run's store holds, in order. */
function steps(out: string) {
  return readFileSync(join(dir, out, 'run.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as StepLine)
    .filter((l) => l.t === 'step')
    .map((l) => l.v);
}

describe('several targets in the runner (issue #42 item 5)', () => {
  it('accepts a skill that helps the target alone when it is the only one', async () => {
    const r = await cli(['train', '--config', 'one.json', '--out', 'one', '--json']);
    const s = last(r.stdout);
    expect(s.status, r.stderr).toBe('completed');
    expect(s.accepted).toBeGreaterThan(0);
    expect(s.best as number).toBeGreaterThan(s.baseline as number);
  });

  it('refuses it when another target finds it worse, and says which', async () => {
    const r = await cli(['train', '--config', 'two.json', '--out', 'two', '--json']);
    const s = last(r.stdout);
    expect(s.status, r.stderr).toBe('completed');
    expect(s.accepted).toBe(0);
    const refused = steps('two').filter((x) => x.refusedBy);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((x) => x.action === 'reject' && x.refusedBy === 'sim-contrarian')).toBe(true);
    expect(r.stderr).toContain('refused by the target sim-contrarian');
    // Its calls are the run's, under their own stage.
    const asked = srv.log.filter((e) => e.model === 'sim-contrarian' && e.status === 200).length;
    expect(asked).toBeGreaterThan(0);
    const counted = steps('two').reduce((n, x) => n + (x.usage.gateTargets?.calls ?? 0), 0);
    expect(counted).toBe(asked);
  });
});
