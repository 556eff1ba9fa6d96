// Resume determinism (issue #4): a run killed anywhere — after any stage, in the middle of a
// rollout wave — resumes from its last checkpoint and ends with exactly the skills, gate
// decisions and scores of an uninterrupted run, without repeating finished calls.
// `vitest -t resume` selects these tests.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMaxListeners } from 'node:events';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG, INITIAL_SKILL, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { openSkillwrightDb, type SkillwrightDb } from '../../src/storage/open-db';
import { IdbRunStore } from '../../src/storage/idb-run-store';
import { markInterrupted, putRun } from '../../src/storage/runs-repo';
import { createLlmPort } from '../../src/llm/openai-client';
import { runTraining, type TrainOutcome } from '../../src/engine/trainer';
import type { RunStore } from '../../src/engine/ports';
import { DEFAULT_RUN_CONFIG } from '../../src/core/run-config';
import type { RunDataset } from '../../src/engine/types';
import { hardWorldDataset } from '../support/bench-quality';
import { HARD_INITIAL_SKILL } from '../support/rule-world';

let srv: LlmTestServer;
let hardSrv: LlmTestServer;
beforeAll(async () => {
  [srv, hardSrv] = await Promise.all([startLlmServer(), startLlmServer({ world: 'hard', noise: 2 })]);
});
afterAll(() => Promise.all([srv.close(), hardSrv.close()]));

const config = { ...SMALL_CONFIG, epochs: 2 };
// A small world keeps each kill-and-resume cheap: 24 train (2 steps per epoch), 12 validation, 24 test items.
const data = worldDataset(60);

/** What a resumed run trains: the easy world, or the noisy hard world (train checks, repairs, a tie accept, carried edits). */
interface World {
  server: () => LlmTestServer;
  config: typeof config;
  data: RunDataset;
  initialSkill: string;
}
const EASY: World = { server: () => srv, config, data, initialSkill: INITIAL_SKILL };
// Seed 7 of the noisy hard world repairs bundles and accepts a validation tie (test/engine/credit.test.ts).
const HARD: World = { server: () => hardSrv, config: { ...config, seed: 7, carryEdits: true }, data: hardWorldDataset(), initialSkill: HARD_INITIAL_SKILL };
let dbCount = 0;

class Killed extends Error {
  constructor() {
    super('killed');
    this.name = 'Killed';
  }
}

/** A store that dies after `limit` writes: every later write throws and the run is aborted. */
function killable(inner: RunStore, limit: number, onKill: () => void, log?: string[]): RunStore {
  let writes = 0;
  let killed = false;
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || !/^(put|save)/.test(String(prop))) return typeof v === 'function' ? v.bind(target) : v;
      return async (...args: unknown[]) => {
        if (writes >= limit) throw new Killed();
        writes++;
        const a = args[0] as { phase?: string; key?: string; step?: number; status?: string };
        log?.push(`${String(prop)}:${a.phase ?? a.key ?? a.step ?? a.status ?? ''}`);
        const r = await (v as (...x: unknown[]) => Promise<unknown>).apply(target, args);
        if (writes >= limit && !killed) {
          killed = true;
          onKill();
        }
        return r;
      };
    },
  });
}

async function freshDb(w: World = EASY): Promise<SkillwrightDb> {
  const db = await openSkillwrightDb(`resume-${++dbCount}-${Date.now()}`);
  await putRun(db, {
    id: 'run',
    name: 'resume test',
    datasetId: 'ds',
    createdAt: 0,
    updatedAt: 0,
    status: 'idle',
    config: { ...DEFAULT_RUN_CONFIG, ...w.config },
    initialSkill: w.initialSkill,
    endpoints: { target: { baseURL: w.server().url, model: 'sim-target' }, optimizer: { baseURL: w.server().url, model: 'sim-optimizer' } },
    prices: {},
  });
  return db;
}

/** Successful HTTP calls of one session, counted at its own fetch (sessions run side by side). */
interface CallCount {
  ok: number;
}

function session(store: RunStore, controller = new AbortController(), calls: CallCount = { ok: 0 }, w: World = EASY): Promise<TrainOutcome> {
  setMaxListeners(10_000, controller.signal);
  const countingFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.ok) calls.ok++;
    return res;
  };
  const llm = createLlmPort(
    {
      target: testEndpoint(w.server().url, 'sim-target', { concurrency: w.config.targetConcurrency }),
      optimizer: testEndpoint(w.server().url, 'sim-optimizer', { concurrency: w.config.optimizerConcurrency }),
    },
    { backoffBaseMs: 5, fetch: countingFetch },
  );
  return runTraining({ runId: 'run', config: w.config, data: w.data, initialSkill: w.initialSkill }, { llm, store, prompts: loadPrompts(), signal: controller.signal });
}

async function fingerprint(db: SkillwrightDb) {
  const store = new IdbRunStore(db);
  const state = (await store.loadState('run'))!;
  const steps = await store.getSteps('run');
  return {
    status: state.status,
    gate: state.gate,
    metaSkill: state.metaSkill,
    pendingEdits: state.pendingEdits,
    epochs: state.epochStats.map((e) => [e.epoch, e.accepts, e.rejects, e.slowUpdate?.action, e.metaSkill?.action]),
    steps: steps.map((s) => [s.step, s.action, s.candidateHash, s.candidateGateScore, s.editBudget, s.rolloutHard]),
    tests: state.summary?.tests.map((t) => [t.skill, t.hash, t.hard, t.soft]),
    versions: (await store.getSkillVersions('run')).map((v) => [v.hash, v.origin]).sort(),
  };
}

describe('resume after a kill', () => {
  let reference: Awaited<ReturnType<typeof fingerprint>>;
  let writeLog: string[] = [];
  let referenceCalls = 0;

  beforeAll(async () => {
    const db = await freshDb();
    writeLog = [];
    const calls = { ok: 0 };
    const outcome = await session(killable(new IdbRunStore(db), Infinity, () => {}, writeLog), undefined, calls);
    expect(outcome.status).toBe('completed');
    referenceCalls = calls.ok;
    reference = await fingerprint(db);
  });

  /** Kill points: the first write of each kind of checkpoint, and the middle of rollout waves. */
  function killPoints(): number[] {
    const points = new Set<number>();
    const seen = new Set<string>();
    writeLog.forEach((w, i) => {
      const kind = `${w.split(':')[0]}:${(w.split(':')[1] ?? '').replace(/\d+/g, '#')}`;
      if (!seen.has(kind)) {
        seen.add(kind);
        points.add(i + 1); // just after this kind's first checkpoint
      }
    });
    // Mid-wave: inside the rollout phases of steps 1 and 3, the baseline, and the test evaluation.
    for (const phase of ['putRollout:baseline', 'putRollout:s0001/rollout', 'putRollout:s0003/gate', 'putRollout:test/best']) {
      const at = writeLog.findIndex((w) => w === phase);
      if (at >= 0) points.add(at + 3);
    }
    return [...points].filter((p) => p < writeLog.length).sort((a, b) => a - b);
  }

  it('resumes from kills at every kind of checkpoint with the same outcome', async () => {
    const points = killPoints();
    expect(points.length).toBeGreaterThanOrEqual(15);
    const killAndResume = async (limit: number) => {
      const db = await freshDb();
      const calls = { ok: 0 };
      const controller = new AbortController();
      const dead = session(killable(new IdbRunStore(db), limit, () => controller.abort('kill')), controller, calls);
      await expect(dead).rejects.toThrow('killed');
      // Start-up after the crash: the run is found "running" and marked interrupted.
      expect(await markInterrupted(db)).toEqual(['run']);
      const resumed = await session(new IdbRunStore(db), undefined, calls);
      expect(resumed.status, `kill after write ${limit} (${writeLog[limit - 1]})`).toBe('completed');
      expect(await fingerprint(db), `kill after write ${limit} (${writeLog[limit - 1]})`).toEqual(reference);
      // No finished call is repeated: at most the calls in flight at the kill are made twice.
      expect(calls.ok - referenceCalls, `kill after write ${limit}`).toBeLessThanOrEqual(config.targetConcurrency + config.optimizerConcurrency);
    };
    // Independent databases, so several kill points run side by side.
    for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(killAndResume));
  }, 240_000);

  it('resumes twice in a row (killed again during the resumed session)', async () => {
    const db = await freshDb();
    const c = new AbortController();
    await expect(session(killable(new IdbRunStore(db), 40, () => c.abort('kill')), c)).rejects.toThrow('killed');
    const c2 = new AbortController();
    await expect(session(killable(new IdbRunStore(db), 60, () => c2.abort('kill')), c2)).rejects.toThrow('killed');
    expect((await session(new IdbRunStore(db))).status).toBe('completed');
    expect(await fingerprint(db)).toEqual(reference);
  }, 60_000);
});

describe('resume after a kill, with the train check, bundle repair, tie-break and carried edits', () => {
  let reference: Awaited<ReturnType<typeof fingerprint>>;
  const writeLog: string[] = [];
  let referenceCalls = 0;

  beforeAll(async () => {
    const db = await freshDb(HARD);
    const calls = { ok: 0 };
    const outcome = await session(killable(new IdbRunStore(db), Infinity, () => {}, writeLog), undefined, calls, HARD);
    expect(outcome.status).toBe('completed');
    referenceCalls = calls.ok;
    reference = await fingerprint(db);
  });

  /** The first write of each of the new checkpoints, and the middle of the first check's waves. */
  function killPoints(): number[] {
    const points = new Set<number>();
    for (const kind of ['putArtifact:/screened', 'putRollout:/check', 'putCall:/repair_edits', 'putArtifact:/repair', 'putRollout:/check-repaired', 'putRollout:/gate-current', 'putArtifact:/candidate_edits']) {
      const [op, suffix] = kind.split(':');
      const at = writeLog.findIndex((w) => w.startsWith(`${op}:`) && w.replace(/^[^:]+:s\d+/, '') === suffix);
      expect(at, `no ${kind} checkpoint in the reference run`).toBeGreaterThanOrEqual(0);
      points.add(at + 1);
      if (kind === 'putRollout:/check') points.add(at + 3);
    }
    return [...points].sort((a, b) => a - b);
  }

  it('resumes from a kill at each new checkpoint with the same outcome', async () => {
    const points = killPoints();
    const killAndResume = async (limit: number) => {
      const db = await freshDb(HARD);
      const calls = { ok: 0 };
      const controller = new AbortController();
      const dead = session(killable(new IdbRunStore(db), limit, () => controller.abort('kill')), controller, calls, HARD);
      await expect(dead).rejects.toThrow('killed');
      expect(await markInterrupted(db)).toEqual(['run']);
      const resumed = await session(new IdbRunStore(db), undefined, calls, HARD);
      expect(resumed.status, `kill after write ${limit} (${writeLog[limit - 1]})`).toBe('completed');
      expect(await fingerprint(db), `kill after write ${limit} (${writeLog[limit - 1]})`).toEqual(reference);
      expect(calls.ok - referenceCalls, `kill after write ${limit}`).toBeLessThanOrEqual(HARD.config.targetConcurrency + HARD.config.optimizerConcurrency);
    };
    for (let i = 0; i < points.length; i += 4) await Promise.all(points.slice(i, i + 4).map(killAndResume));
  }, 240_000);
});
