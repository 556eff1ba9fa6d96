/**
 * The long-run part of `npm run bench:scale` (issue #20 item 17): a stored run of 1 000 steps
 * whose accepted versions are 5 000-line skills, then what the Runs and Skill screens ask of it —
 * the HTML report, the blame of the best skill, one step's inspector — and the line matching of
 * two 5 000-line skills on its own. Wall time and peak live heap of each.
 */
import { createApi } from '../../src/worker/create-api';
import { openSkillwrightDb, type SkillwrightDb } from '../../src/storage/open-db';
import { putRun } from '../../src/storage/runs-repo';
import { keptLines } from '../../src/core/skill/edit-blame';
import { skillHash } from '../../src/core/basics/hash';
import { stepKey } from '../../src/engine/keys';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { RolloutRow, StepRecord } from '../../src/engine/types';
import { promptFiles } from './prompts';

export interface Measured<T> {
  value: T;
  ms: number;
  peakHeapMb: number;
}
type Measure = <T>(fn: () => Promise<T>) => Promise<Measured<T>>;

const STEPS = 1_000;
const LINES = 5_000;
const ACCEPT_EVERY = 10;
const GATE_ITEMS = 40;

/** A skill of `n` lines; version k changes a few of them and adds one. */
function skillAt(version: number, n = LINES): string {
  const lines = Array.from({ length: n }, (_, i) => `- Rule ${i}: answer with the code for case ${i}.`);
  for (let k = 1; k <= version; k++) lines[(k * 37) % n] = `- Rule ${(k * 37) % n} (revised in version ${k}).`;
  lines.push(`- Added by version ${version}.`);
  return `${lines.join('\n')}\n`;
}

/** A stored, completed run of `steps` steps, one in ten accepted; returns its versions' texts. */
export async function seedHistory(db: SkillwrightDb, runId: string, steps = STEPS, lines = LINES): Promise<string[]> {
  const versions = steps / ACCEPT_EVERY;
  const texts = Array.from({ length: versions + 1 }, (_, v) => skillAt(v, lines));
  const initialSkill = texts[0];
  const hashes = await Promise.all(texts.map(skillHash));
  await putRun(db, {
    id: runId, name: 'history', datasetId: 'none', createdAt: 0, updatedAt: 0, status: 'completed', config: DEFAULT_RUN_CONFIG, initialSkill,
    endpoints: { target: { baseURL: 'http://127.0.0.1:9/v1', model: 't' }, optimizer: { baseURL: 'http://127.0.0.1:9/v1', model: 'o' } }, prices: {},
  });
  const tx = db.transaction(['steps', 'skills', 'rollouts', 'artifacts'], 'readwrite');
  void tx.objectStore('skills').put({ runId, hash: hashes[0], text: initialSkill, origin: 'initial_skill', step: 0, createdAt: 0 });
  for (let step = 1; step <= steps; step++) {
    const v = Math.floor(step / ACCEPT_EVERY);
    const accepted = step % ACCEPT_EVERY === 0;
    const key = stepKey(step);
    void tx.objectStore('steps').put({
      runId, step, epoch: 1, stepInEpoch: step - 1, action: accepted ? 'accept_new_best' : 'reject', candidateHash: accepted ? hashes[v] : `c${step}`,
      candidateGateScore: 0.5, currentScore: 0.5, bestScore: 0.5, scoreBefore: 0.5,
    } as unknown as StepRecord);
    if (accepted) void tx.objectStore('skills').put({ runId, hash: hashes[v], text: texts[v], origin: `step_${String(step).padStart(4, '0')}`, step, createdAt: step });
    void tx.objectStore('artifacts').put({ runId, key: `${key}/candidate_edits`, value: [{ op: 'append', content: `- Added by version ${v}.` }] });
    for (let i = 0; i < GATE_ITEMS; i++) {
      const row = { runId, phase: `${key}/gate`, order: i, itemId: `q${i}`, skillHash: `c${step}`, cacheKey: `c${step}|q${i}|t`, status: 'ok', response: 'r', predicted: 'p', hard: (i + step) % 2, soft: 0.5, usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 }, latencyMs: 1, cached: false } as RolloutRow;
      void tx.objectStore('rollouts').put(row);
      if (accepted) void tx.objectStore('rollouts').put({ ...row, phase: `${key}/cur`, skillHash: hashes[v - 1] ?? hashes[0], cacheKey: `${hashes[v]}|q${i}|t` });
    }
  }
  await tx.done;
  return texts;
}

export async function benchHistory(measure: Measure): Promise<{ phase: string; ms: number; peakHeapMb: number }[]> {
  const db = await openSkillwrightDb(`bench-history-${Date.now()}`);
  const runId = 'history';
  const texts = await seedHistory(db, runId);
  const versions = texts.length - 1;
  const api = createApi({ db, promptFiles: promptFiles(), lockReleaseWaitMs: 0 });
  // Each call twice: once timed alone, once under the heap sampler (whose forced collections on a
  // heap this size would otherwise be most of the time measured).
  const twice = async <T>(fn: () => Promise<T>): Promise<Measured<T>> => {
    const t0 = performance.now();
    await fn();
    const ms = performance.now() - t0;
    return { ...(await measure(fn)), ms };
  };
  const report = await twice(() => api.exportReport(runId));
  if (!report.value.ok) throw new Error(report.value.error.message);
  const blame = await twice(() => api.blameSkill(runId, texts[versions]));
  if (!blame.value.ok) throw new Error(blame.value.error.message);
  const detail = await twice(() => api.getStepDetail(runId, STEPS / 2));
  // Changes at both ends leave no common prefix or suffix to trim: the whole skill is matched.
  const a = texts[versions].split('\n');
  const b = ['- A new first rule.', ...a.slice(1, 2_000), ...Array.from({ length: 1_000 }, (_, i) => `- New rule ${i}.`), ...a.slice(3_000, -2), '- A new last rule.'];
  const match = await twice(async () => keptLines(a, b));
  db.close();
  const row = (phase: string, m: Measured<unknown>) => ({ phase, ms: Math.round(m.ms), peakHeapMb: Math.round(m.peakHeapMb) });
  return [
    row(`report of ${STEPS} steps (${versions} versions of ${LINES} lines)`, report),
    row(`blame of the best skill (${versions + 1} versions)`, blame),
    row('one step in the inspector', detail),
    row(`match two ${LINES}-line skills (1 000 lines changed)`, match),
  ];
}
