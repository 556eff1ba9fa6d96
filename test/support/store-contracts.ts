/**
 * One contract suite per store port (issue #41 item 7; tldraw's `registerStorageContractTests`):
 * the engine's `RunStore` and the run service's `RunRecords`, each run over every adapter, so an
 * adapter that drifts fails naming the rule it broke. Every adapter holds one run here: the
 * runner's file holds one run per folder, and the rules are what the engine and the service rely on.
 * Rules: [RS1]–[RS9] the engine's store, [RR1]–[RR6] the service's.
 */
import { describe, expect, it } from 'vitest';
import type { RunStore } from '../../src/engine/ports';
import type { RunRecords } from '../../src/service/ports';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, RunState, SkillVersion, StepRecord } from '../../src/engine/types';
import { initialRunState } from '../../src/engine/run/trainer';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { DatasetRecord, RunRecord } from '../../src/storage/schema';
import { bundlePieces } from '../../src/service/bundle-pieces';
import { parseBundle } from '../../src/storage/bundle';

export const RUN = 'run-contract';

export const runRecord = (): RunRecord => ({
  id: RUN,
  name: 'Contract run',
  datasetId: 'ds-contract',
  createdAt: 1,
  updatedAt: 1,
  status: 'idle',
  config: DEFAULT_RUN_CONFIG,
  initialSkill: '# Start',
  endpoints: { target: { baseURL: 'http://x/v1', model: 't' }, optimizer: { baseURL: 'http://x/v1', model: 'o' } },
  prices: {},
});

export const dataset = (): DatasetRecord => ({
  id: 'ds-contract',
  name: 'contract.json',
  createdAt: 1,
  fieldNames: ['question', 'answer'],
  format: 'json',
  items: [{ id: 'q1', question: 'Q1?', answers: ['a'], fields: {} }],
  splits: { train: ['q1'], val: [], test: [] },
  mapping: {},
  warnings: [],
} as unknown as DatasetRecord);

const state = (nextStep: number): RunState => ({
  ...initialRunState({ runId: RUN, config: DEFAULT_RUN_CONFIG, data: { items: [], splits: { train: [], val: [], test: [] } }, initialSkill: '# Start' }, 1),
  nextStep,
  updatedAt: 10 + nextStep,
});

const row = (phase: string, order: number, o: Partial<RolloutRow> = {}): RolloutRow => ({
  runId: RUN, phase, order, itemId: `q${order}`, skillHash: 'h1', cacheKey: `h1|q${order}|t`, status: 'ok', response: 'r',
  predicted: 'p', hard: 1, soft: 1, usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 }, latencyMs: 1, cached: false, ...o,
});
const call = (key: string): OptimizerCallRecord =>
  ({ runId: RUN, key, stage: 'reflect', requestPreview: 'p', raw: '{}', usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 } }) as unknown as OptimizerCallRecord;
const artifact = (key: string, value: unknown): ArtifactRecord => ({ runId: RUN, key, value });
const step = (n: number, action = 'reject'): StepRecord => ({ runId: RUN, step: n, epoch: 1, action }) as unknown as StepRecord;
const version = (origin: string, stepNo: number, createdAt: number): SkillVersion => ({ runId: RUN, hash: `h-${origin}`, text: `# ${origin}`, origin, step: stepNo, createdAt });

/** A store of one run, and (for a durable one) the same store opened again. */
export interface RunStoreMaker {
  store: RunStore;
  reopen?: () => Promise<RunStore>;
}

export function runStoreContract(name: string, make: () => Promise<RunStoreMaker>): void {
  describe(`RunStore contract: ${name}`, () => {
    it('[RS1] a fresh store holds nothing of the run', async () => {
      const { store } = await make();
      expect(await store.getRollouts(RUN, 'baseline')).toEqual([]);
      expect(await store.listRollouts(RUN)).toEqual([]);
      expect(await store.findRollout(RUN, 'h1|q1|t')).toBeUndefined();
      expect(await store.getCall(RUN, 'k')).toBeUndefined();
      expect(await store.getArtifact(RUN, 'k')).toBeUndefined();
      expect(await store.getSteps(RUN)).toEqual([]);
      expect(await store.getSkillVersions(RUN)).toEqual([]);
    });

    it('[RS2] the state saved last is the state loaded, and a loaded state is a copy', async () => {
      const { store } = await make();
      await store.saveState(state(2));
      await store.saveState(state(3));
      const loaded = (await store.loadState(RUN))!;
      expect(loaded.nextStep).toBe(3);
      loaded.nextStep = 99;
      expect((await store.loadState(RUN))!.nextStep).toBe(3);
    });

    it('[RS3] a phase’s rows come back in their order; a row written again at its place replaces it', async () => {
      const { store } = await make();
      await store.putRollout(row('baseline', 2));
      await store.putRollout(row('baseline', 0));
      await store.putRollout(row('other', 1));
      await store.putRollout(row('baseline', 1, { status: 'error', hard: 0 }));
      await store.putRollout(row('baseline', 1, { hard: 0.5 }));
      expect((await store.getRollouts(RUN, 'baseline')).map((r) => [r.order, r.hard])).toEqual([[0, 1], [1, 0.5], [2, 1]]);
      expect((await store.listRollouts(RUN)).length).toBe(4);
    });

    it('[RS4] a cache key finds a scored row from any phase, never an errored one', async () => {
      const { store } = await make();
      await store.putRollout(row('step_0001/rollout', 0, { cacheKey: 'bad', status: 'error', hard: 0 }));
      await store.putRollout(row('baseline', 3, { cacheKey: 'good' }));
      expect(await store.findRollout(RUN, 'bad')).toBeUndefined();
      expect(await store.findRollout(RUN, 'good')).toMatchObject({ phase: 'baseline', order: 3, status: 'ok' });
    });

    it('[RS5] an optimizer call is found by its key and listed', async () => {
      const { store } = await make();
      await store.putCall(call('step_0001/reflect/0'));
      await store.putCall(call('step_0001/merge/0'));
      expect(await store.getCall(RUN, 'step_0001/reflect/0')).toMatchObject({ stage: 'reflect' });
      expect((await store.listCalls(RUN)).map((c) => c.key).sort()).toEqual(['step_0001/merge/0', 'step_0001/reflect/0']);
    });

    it('[RS6] an artifact is written over, read back, and deleted', async () => {
      const { store } = await make();
      await store.putArtifact(artifact('step_0001/gate', { a: 1 }));
      await store.putArtifact(artifact('step_0001/gate', { a: 2 }));
      expect((await store.getArtifact(RUN, 'step_0001/gate'))?.value).toEqual({ a: 2 });
      await store.deleteArtifact(RUN, 'step_0001/gate');
      expect(await store.getArtifact(RUN, 'step_0001/gate')).toBeUndefined();
    });

    it('[RS7] steps come back in step order, a step written again replacing its record', async () => {
      const { store } = await make();
      await store.putStep(step(2));
      await store.putStep(step(1));
      await store.putStep(step(2, 'accept_new_best'));
      expect((await store.getSteps(RUN)).map((s) => [s.step, s.action])).toEqual([[1, 'reject'], [2, 'accept_new_best']]);
    });

    it('[RS8] skill versions come oldest first (ties by step, then origin); the first write of an origin wins', async () => {
      const { store } = await make();
      await store.putSkillVersion(version('step_0002', 2, 5));
      await store.putSkillVersion(version('step_0001', 1, 5));
      await store.putSkillVersion(version('slow_update_epoch_01', 1, 5));
      await store.putSkillVersion(version('initial_skill', 0, 1));
      await store.putSkillVersion({ ...version('initial_skill', 0, 9), text: '# again' });
      const vs = await store.getSkillVersions(RUN);
      expect(vs.map((v) => v.origin)).toEqual(['initial_skill', 'slow_update_epoch_01', 'step_0001', 'step_0002']);
      expect(vs[0].text).toBe('# initial_skill');
    });

    it('[RS9] a durable store opened again holds all of it', async () => {
      const m = await make();
      if (!m.reopen) return;
      await m.store.saveState(state(4));
      await m.store.putRollout(row('baseline', 0));
      await m.store.putCall(call('c'));
      await m.store.putArtifact(artifact('a', 1));
      await m.store.putStep(step(1));
      await m.store.putSkillVersion(version('initial_skill', 0, 1));
      const again = await m.reopen();
      expect((await again.loadState(RUN))?.nextStep).toBe(4);
      expect(await again.getRollouts(RUN, 'baseline')).toEqual(await m.store.getRollouts(RUN, 'baseline'));
      expect(await again.getCall(RUN, 'c')).toEqual(await m.store.getCall(RUN, 'c'));
      expect((await again.getArtifact(RUN, 'a'))?.value).toBe(1);
      expect(await again.getSteps(RUN)).toEqual(await m.store.getSteps(RUN));
      expect(await again.getSkillVersions(RUN)).toEqual(await m.store.getSkillVersions(RUN));
    });
  });
}

/** The service's store with the run record and its dataset written, and a fresh empty one (for imports). */
export interface RunRecordsMaker {
  records: RunRecords;
  empty: () => Promise<RunRecords>;
}

async function fill(records: RunRecords): Promise<void> {
  const store = records.runStore(RUN);
  await store.saveState(state(3));
  for (const [phase, n] of [['baseline', 3], ['step_0001/rollout', 2], ['step_0001/gate', 2], ['step_0002/rollout', 1]] as const)
    for (let i = 0; i < n; i++) await store.putRollout(row(phase, i, { skillHash: phase === 'step_0001/gate' ? 'h2' : 'h1' }));
  for (const k of ['step_0001/reflect/0', 'step_0001/merge/0', 'step_0002/reflect/0', 'epoch_01/slow_update']) await store.putCall(call(k));
  for (const k of ['step_0001/gate', 'step_0001/ranked', 'step_0010/gate']) await store.putArtifact(artifact(k, { k }));
  await store.putStep(step(1));
  await store.putStep(step(2));
  await store.putSkillVersion(version('initial_skill', 0, 1));
  await store.putSkillVersion(version('step_0001', 1, 2));
}

export function runRecordsContract(name: string, make: () => Promise<RunRecordsMaker>): void {
  describe(`RunRecords contract: ${name}`, () => {
    it('[RR1] a run record written is read back with the state its engine store saved; an unknown run is none', async () => {
      const { records } = await make();
      await fill(records);
      const run = (await records.getRun(RUN))!;
      expect(run).toMatchObject({ id: RUN, name: 'Contract run', initialSkill: '# Start' });
      expect(run.state?.nextStep).toBe(3);
      expect(await records.getRun('no-such-run')).toBeUndefined();
      await records.putRun({ ...run, name: 'Renamed' });
      expect((await records.getRun(RUN))?.name).toBe('Renamed');
    });

    it('[RR2] the run’s dataset is read back whole, and its name without its items', async () => {
      const { records } = await make();
      expect(await records.getDataset('ds-contract')).toMatchObject({ name: 'contract.json', splits: { train: ['q1'] } });
      expect(await records.datasetName('ds-contract')).toBe('contract.json');
      expect(await records.getDataset('ds-other')).toBeUndefined();
    });

    it('[RR3] steps, versions and a phase’s rows read as the engine’s store gives them', async () => {
      const { records } = await make();
      await fill(records);
      const store = records.runStore(RUN);
      expect(await records.getSteps(RUN)).toEqual(await store.getSteps(RUN));
      expect((await records.getStep(RUN, 2))?.step).toBe(2);
      expect(await records.getStep(RUN, 7)).toBeUndefined();
      expect(await records.getSkillVersions(RUN)).toEqual(await store.getSkillVersions(RUN));
      expect(await records.getRollouts(RUN, 'baseline')).toEqual(await store.getRollouts(RUN, 'baseline'));
    });

    it('[RR4] a skill’s rows by its hash; a step’s calls and artifacts by their key prefix', async () => {
      const { records } = await make();
      await fill(records);
      expect((await records.skillRows(RUN, 'h2')).map((r) => r.phase)).toEqual(['step_0001/gate', 'step_0001/gate']);
      expect((await records.skillRows(RUN, 'h1')).length).toBe(6);
      expect((await records.callsUnder(RUN, 'step_0001/')).map((c) => c.key).sort()).toEqual(['step_0001/merge/0', 'step_0001/reflect/0']);
      expect((await records.artifactsUnder(RUN, 'step_0001/')).map((a) => a.key).sort()).toEqual(['step_0001/gate', 'step_0001/ranked']);
    });

    it('[RR5] a kind of rows comes in pages of the size asked, in the order of their keys, all of them', async () => {
      const { records } = await make();
      await fill(records);
      const pages: RolloutRow[][] = [];
      for await (const p of records.rowPages(RUN, 'rollouts', 3)) pages.push(p);
      expect(pages.map((p) => p.length)).toEqual([3, 3, 2]);
      expect(pages.flat().map((r) => `${r.phase}#${r.order}`)).toEqual([
        'baseline#0', 'baseline#1', 'baseline#2', 'step_0001/gate#0', 'step_0001/gate#1',
        'step_0001/rollout#0', 'step_0001/rollout#1', 'step_0002/rollout#0',
      ]);
      const calls: string[] = [];
      for await (const p of records.rowPages(RUN, 'calls', 10)) calls.push(...p.map((c) => c.key));
      expect(calls).toEqual(['epoch_01/slow_update', 'step_0001/merge/0', 'step_0001/reflect/0', 'step_0002/reflect/0']);
    });

    it('[RR6] a run’s bundle taken into an empty store gives back the same run, read-only until bound', async () => {
      const m = await make();
      await fill(m.records);
      let text = '';
      for await (const piece of (await bundlePieces(m.records, RUN, '2026-01-01T00:00:00.000Z'))!) text += piece;
      const parsed = parseBundle(text);
      if (!parsed.ok) throw new Error(parsed.error);
      const other = await m.empty();
      const taken = await other.importBundle(parsed.bundle, () => 'run-new');
      expect(taken).toMatchObject({ ok: true, runId: RUN });
      expect((await other.getRun(RUN))?.needsBinding).toBe(true);
      expect(await other.getSteps(RUN)).toEqual(await m.records.getSteps(RUN));
      expect(await other.getRollouts(RUN, 'step_0001/gate')).toEqual(await m.records.getRollouts(RUN, 'step_0001/gate'));
      expect(await other.getDataset('ds-contract')).toMatchObject({ name: 'contract.json' });
    });
  });
}
