// Several targets in the runner (issue #42 item 5): `"targets": [target…]` makes the gate accept a
// candidate only if no other target finds it worse on validation. The world is built so that every
// useful skill helps one target and hurts the other: under sim-target a skill helps only by the
// rules it states (the rule world); sim-contrarian knows every code by itself and is thrown by any
// rule it is given. With it among the targets nothing the optimizer writes may be accepted.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { expectedAnswer, makeWorldItems, parseQuestion } from '../support/rule-world';
import { runCliIn } from '../support/cli-here';
import { openTab } from '../support/api-harness';

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

function config(file: string, extra: Record<string, unknown>, settings: object = {}): void {
  writeFileSync(
    join(dir, file),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      split: { ratio: [1, 1, 1] },
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { ...run, ...settings },
      ...extra,
    }),
  );
}

beforeAll(async () => {
  srv = await startLlmServer({
    models: ['sim-target', 'sim-optimizer', 'sim-contrarian', 'sim-twin'],
    modelHook: contrarian,
  });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-targets-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(36, 4)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  config('one.json', {});
  config('two.json', { targets: [{ baseURL: srv.url, model: 'sim-contrarian', maxRetries: 2 }] });
  // The mean comparator (no posterior confidence): a settled loss beyond a tie refuses.
  const refusing = [{ baseURL: srv.url, model: 'sim-contrarian', maxRetries: 2 }];
  config('mean.json', { targets: refusing }, { gateConfidence: 0 });
  config('mean-one.json', {}, { gateConfidence: 0 });
  // sim-twin answers as sim-target does: a skill that helps one helps the other.
  config('twin.json', { targets: [{ baseURL: srv.url, model: 'sim-twin', maxRetries: 2 }] });
});
afterAll(() => srv.close());

/** Successful answers of a model since a point of the server's log. */
const answered = (model: string, from = 0) =>
  srv.log.slice(from).filter((e) => e.model === model && e.status === 200).length;

/** Where the unbroken run with the contrarian among the targets sits in the server's log. */
const twoLog = { from: 0, to: 0 };

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
    twoLog.from = srv.log.length;
    const r = await cli(['train', '--config', 'two.json', '--out', 'two', '--json']);
    const s = last(r.stdout);
    expect(s.status, r.stderr).toBe('completed');
    expect(s.accepted).toBe(0);
    const refused = steps('two').filter((x) => x.refusedBy);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((x) => x.action === 'reject' && x.refusedBy === 'sim-contrarian')).toBe(true);
    expect(r.stderr).toContain('refused by the target sim-contrarian');
    // Its calls are the run's, under their own stage.
    twoLog.to = srv.log.length;
    const asked = answered('sim-contrarian');
    expect(asked).toBeGreaterThan(0);
    const counted = steps('two').reduce((n, x) => n + (x.usage.gateTargets?.calls ?? 0), 0);
    expect(counted).toBe(asked);
    // The closing lines and the JSON: the best skill (the starting one) on validation under each target.
    expect(s.targets).toEqual([
      { target: 'sim-target', trained: true, validationInitial: 0, validationBest: 0 },
      { target: 'sim-contrarian', trained: false, validationInitial: 1, validationBest: 1 },
    ]);
    expect(r.stderr).toContain('Validation under each target that gated, the starting skill → the best:');
    expect(r.stderr).toContain('  sim-contrarian: 1.000 → 1.000');
    expect(readFileSync(join(dir, 'two', 'report.html'), 'utf8')).toContain(
      '<td>reject, refused by the target sim-contrarian</td>',
    );
  });

  it('refuses it under mean verdicts too (a settled loss), and accepts it there without the other target', async () => {
    const alone = last((await cli(['train', '--config', 'mean-one.json', '--out', 'mean-one', '--json'])).stdout);
    expect(alone.accepted).toBeGreaterThan(0);
    const r = await cli(['train', '--config', 'mean.json', '--out', 'mean', '--json']);
    const s = last(r.stdout);
    expect(s.status, r.stderr).toBe('completed');
    expect(s.accepted).toBe(0);
    expect(steps('mean').some((x) => x.refusedBy === 'sim-contrarian')).toBe(true);
  });

  it('accepts what no other target finds worse, and shows the best skill under each', async () => {
    const from = srv.log.length;
    const r = await cli(['train', '--config', 'twin.json', '--out', 'twin', '--json']);
    const s = last(r.stdout);
    expect(s.status, r.stderr).toBe('completed');
    expect(s.accepted).toBeGreaterThan(0);
    expect(steps('twin').some((x) => x.refusedBy)).toBe(false);
    const [own, twin] = s.targets as { target: string; validationInitial: number; validationBest: number }[];
    expect(own.target).toBe('sim-target');
    expect(twin.target).toBe('sim-twin');
    expect(twin.validationBest).toBeGreaterThan(twin.validationInitial);
    expect(r.stderr).toMatch(/ {2}sim-twin: 0\.\d{3} → \d\.\d{3}/);
    const html = readFileSync(join(dir, 'twin', 'report.html'), 'utf8');
    expect(html).toContain('<h2>Validation under each target that gated</h2>');
    expect(html).toContain('<td>sim-target (trained on)</td>');
    expect(html).toContain('<td>sim-twin</td>');
    // Its calls: counted and priced under their own stage.
    expect(html).toContain(`<td>Gate on other targets</td><td>${answered('sim-twin', from)}</td>`);
  });

  it('resumes a run paused mid-check without asking the other target anything twice', async () => {
    // The unbroken run's target calls, and where the other target was first asked among them.
    const targetCalls = srv.log.slice(twoLog.from, twoLog.to).filter((e) => e.stage === 'target');
    // The other target's calls in the unbroken run: a pause in its second check leaves the first's stored.
    const others = targetCalls.flatMap((e, i) => (e.model === 'sim-contrarian' ? [i] : []));
    const secondCheck = others.find((i, k) => k > 0 && i > others[k - 1] + 1)!;
    expect(secondCheck).toBeGreaterThan(0);
    const unbroken = targetCalls.filter((e) => e.model === 'sim-contrarian' && e.status === 200).length;
    const from = srv.log.length;
    // A refused key a few calls into the other target's second check: the run pauses there.
    srv.set({ faults: [{ kind: '401', stage: 'target', after: secondCheck + 2, times: 1 }] });
    const paused = await cli(['train', '--config', 'two.json', '--out', 'two-paused', '--json']);
    expect(last(paused.stdout).status, paused.stderr).toBe('paused');
    srv.set({ faults: [] });
    const resumedFrom = srv.log.length;
    const resumed = await cli(['train', '--config', 'two.json', '--out', 'two-paused', '--json']);
    const s = last(resumed.stdout);
    expect(s.status, resumed.stderr).toBe('completed');
    expect(resumed.stderr).toMatch(/Continuing the run/);
    // The same decisions as the unbroken run, and the same calls: each rollout cached under its target.
    const decided = (out: string) => steps(out).map((x) => [x.step, x.action, x.refusedBy ?? null]);
    expect(decided('two-paused')).toEqual(decided('two'));
    // Answers still in flight when the key was refused go with the pause (at most the target's
    // concurrency less the refused call); everything stored before it comes from the cache.
    const pausedCalls = answered('sim-contrarian', from) - answered('sim-contrarian', resumedFrom);
    expect(pausedCalls).toBeGreaterThan(0);
    expect(answered('sim-contrarian', resumedFrom)).toBeLessThan(unbroken);
    expect(answered('sim-contrarian', from)).toBeGreaterThanOrEqual(unbroken);
    expect(answered('sim-contrarian', from)).toBeLessThanOrEqual(unbroken + 7);
  });

  it('the page keeps an imported run’s gating targets and refuses to continue it without them', async () => {
    const tab = await openTab();
    const taken = await tab.api.importRun(new Blob([readFileSync(join(dir, 'two', 'run-bundle.json'), 'utf8')]));
    if (!taken.ok) throw new Error(taken.error.message);
    const stored = await tab.db.get('runs', taken.runId);
    expect(stored!.endpoints.targets!.map((e) => e.model)).toEqual(['sim-contrarian']);
    const own = { target: stored!.endpoints.target, optimizer: stored!.endpoints.optimizer };
    const refused = await tab.api.bindRun(taken.runId, own, {});
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_config' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/gate asked 1 other target too \(the runner's "targets"\)/);
    expect(await tab.api.bindRun(taken.runId, stored!.endpoints, {})).toMatchObject({ ok: true });
    tab.close();
  });

  it('prices the other target’s calls in the estimate, and doctor probes it as the target', async () => {
    const [one, two] = await Promise.all([
      cli(['estimate', '--config', 'one.json', '--json']),
      cli(['estimate', '--config', 'two.json', '--json']),
    ]);
    type Estimate = { calls: number; stages: Record<string, { calls: number } | undefined> };
    const [a, b] = [JSON.parse(one.stdout.trim()) as Estimate, JSON.parse(two.stdout.trim()) as Estimate];
    expect(a.stages.gateTargets).toBeUndefined();
    // The candidate and the skill it meets on the 12 validation items, at 2 steps and the final promotion.
    expect(b.stages.gateTargets!.calls).toBe(2 * 12 * 3);
    expect(b.calls).toBe(a.calls + 72);
    expect(two.stderr).toMatch(/gateTargets\s+72 calls/);
    const doctor = await cli(['doctor', '--config', 'two.json']);
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(doctor.stderr).toMatch(/^targets\[0\] sim-contrarian: \d+ ms$/m);
  });
});
