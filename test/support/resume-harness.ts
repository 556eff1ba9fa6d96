/**
 * Kill-and-resume harness (issue #4): a store that dies after N writes, a fresh database holding
 * one run, a training session counting its own successful HTTP calls, and the fingerprint a
 * resumed run must match. Shared by the resume tests of the easy and the hard world.
 */
import { setMaxListeners } from 'node:events';
import { expect } from 'vitest';
import type { LlmTestServer } from './llm-server';
import { testEndpoint } from './endpoints';
import { loadPrompts } from './prompts';
import { openSkillwrightDb, type SkillwrightDb } from '../../src/storage/open-db';
import { IdbRunStore } from '../../src/storage/idb-run-store';
import { markInterrupted, putRun } from '../../src/storage/runs-repo';
import { createLlmPort } from '../../src/llm/openai-client';
import { runTraining, type ActivationInput, type TrainOutcome } from '../../src/engine/run/trainer';
import type { RunStore } from '../../src/engine/ports';
import type { ToolEnvironment } from '../../src/engine/environment';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import type { RunDataset } from '../../src/engine/types';
import { curveMarks } from '../../src/engine/curve-marks';
import { learningCurve } from '../../src/core/report/learning-curve';
import type { Prices } from '../../src/engine/meter';

/** What a resumed run trains, and against which test server. */
export interface World {
  server: () => LlmTestServer;
  config: RunConfig;
  data: RunDataset;
  initialSkill: string;
  activation?: ActivationInput;
  /** The host's environment for agents' tools (a module, MCP servers). */
  environment?: ToolEnvironment;
  prices?: Prices;
}

let dbCount = 0;

export class Killed extends Error {
  constructor() {
    super('killed');
    this.name = 'Killed';
  }
}

/** A store that dies after `limit` writes: every later write throws and the run is aborted. */
export type KillableStore = RunStore & {
  /** Resolves when the writes under way at the kill have landed (a crashed tab has none left). */
  settled(): Promise<void>;
};

/**
 * A store that dies after `limit` writes — or, given a predicate, just after the first write it
 * accepts (the predicate sees each write's log entry): every later write throws, the run aborts.
 */
export function killable(inner: RunStore, limit: number | ((entry: string) => boolean), onKill: () => void, log?: string[]): KillableStore {
  let writes = 0;
  let killed = false;
  let dying = false;
  const underWay = new Set<Promise<unknown>>();
  const settled = async () => {
    while (underWay.size) await Promise.allSettled([...underWay]);
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'settled') return settled;
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function' || !/^(put|save)/.test(String(prop))) return typeof v === 'function' ? v.bind(target) : v;
      return async (...args: unknown[]) => {
        if (typeof limit === 'number' ? writes >= limit : dying) throw new Killed();
        writes++;
        const a = args[0] as { phase?: string; key?: string; step?: number; status?: string };
        const entry = `${String(prop)}:${a.phase ?? a.key ?? a.step ?? a.status ?? ''}`;
        log?.push(entry);
        if (typeof limit === 'function' && limit(entry)) dying = true;
        const write = (v as (...x: unknown[]) => Promise<unknown>).apply(target, args);
        underWay.add(write);
        try {
          return await write;
        } finally {
          underWay.delete(write);
          if ((typeof limit === 'number' ? writes >= limit : dying) && !killed) {
            killed = true;
            onKill();
          }
        }
      };
    },
  }) as KillableStore;
}

export async function freshDb(w: World): Promise<SkillwrightDb> {
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
export interface CallCount {
  ok: number;
}

export function session(w: World, store: RunStore, controller = new AbortController(), calls: CallCount = { ok: 0 }): Promise<TrainOutcome> {
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
  const input = { runId: 'run', config: w.config, data: w.data, initialSkill: w.initialSkill, ...(w.activation ? { activation: w.activation } : {}), ...(w.prices ? { prices: w.prices } : {}) };
  return runTraining(input, { llm, store, prompts: loadPrompts(), signal: controller.signal, environment: w.environment });
}

export async function fingerprint(db: SkillwrightDb) {
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
    activation: state.activation,
    versions: (await store.getSkillVersions('run')).map((v) => [v.hash, v.origin]).sort(),
    // The learning curve: the spend recorded at each point (costs summed in another order differ in the last bits).
    curve: learningCurve(curveMarks(state, steps)).map((p) => ({ ...p, costUsd: Number(p.costUsd.toFixed(9)) })),
  };
}

export type Fingerprint = Awaited<ReturnType<typeof fingerprint>>;

/** A reference run: the uninterrupted outcome, its write log and its HTTP calls. */
export async function referenceRun(w: World): Promise<{ reference: Fingerprint; writeLog: string[]; calls: number }> {
  const db = await freshDb(w);
  const writeLog: string[] = [];
  const calls = { ok: 0 };
  const outcome = await session(w, killable(new IdbRunStore(db), Infinity, () => {}, writeLog), undefined, calls);
  expect(outcome.status).toBe('completed');
  return { reference: await fingerprint(db), writeLog, calls: calls.ok };
}

/**
 * Kill a fresh run after `limit` writes, recover as start-up does, resume: it must end exactly as
 * the reference, repeating at most the calls in flight at the kill.
 */
export async function killAndResume(w: World, ref: { reference: Fingerprint; writeLog: string[]; calls: number }, limit: number): Promise<void> {
  const db = await freshDb(w);
  const calls = { ok: 0 };
  const controller = new AbortController();
  const store = killable(new IdbRunStore(db), limit, () => controller.abort('kill'));
  const dead = session(w, store, controller, calls);
  await expect(dead).rejects.toThrow('killed');
  // The dead session's chains may still have a write under way (the last ones allowed before
  // the kill): let it land, as a crashed tab's would have, before start-up recovers the run.
  await store.settled();
  // Start-up after the crash: the run is found "running" and marked interrupted.
  expect(await markInterrupted(db)).toEqual(['run']);
  const resumed = await session(w, new IdbRunStore(db), undefined, calls);
  const where = `kill after write ${limit} (${ref.writeLog[limit - 1]})`;
  expect(resumed.status, where).toBe('completed');
  expect(await fingerprint(db), where).toEqual(ref.reference);
  expect(calls.ok - ref.calls, where).toBeLessThanOrEqual(w.config.targetConcurrency + w.config.optimizerConcurrency);
}

/**
 * Kill-and-resume at several points as one chain on one database (issue #20 item 27): each
 * session dies just after the first write it makes of a kind not killed at yet (the kinds of the
 * reference's writes at `points`), start-up recovers it, the next session resumes — and dies at
 * the next kind. Resumed sessions are killed too, which one run per point never tried; the chain
 * costs about one run. It must end exactly as the reference, repeating at most the calls in
 * flight at each kill.
 */
export async function killAndResumeAt(w: World, ref: Parameters<typeof killAndResume>[1], points: readonly number[]): Promise<void> {
  const pending = new Set(points.map((p) => ref.writeLog[p - 1]));
  const db = await freshDb(w);
  const calls = { ok: 0 };
  const killedAt: string[] = [];
  for (;;) {
    const controller = new AbortController();
    const log: string[] = [];
    const store = killable(new IdbRunStore(db), (entry) => pending.has(entry), () => controller.abort('kill'), log);
    const outcome = await session(w, store, controller, calls).catch((e: unknown) => e);
    await store.settled();
    // Whatever pending kind this session wrote (the kill's, and any landing beside it) is done.
    const hit = log.filter((e) => pending.has(e));
    hit.forEach((e) => pending.delete(e));
    if (!(outcome instanceof Killed)) {
      expect(outcome, `after kills at ${killedAt.join(', ')}`).toMatchObject({ status: 'completed' });
      break;
    }
    killedAt.push(hit[0]);
    expect(await markInterrupted(db)).toEqual(['run']);
  }
  const where = `kills at ${killedAt.join(', ')}`;
  // Every kind was killed at, or written beside a kill (a write in flight lands as the tab dies).
  expect([...pending], where).toEqual([]);
  expect(killedAt.length, where).toBeGreaterThanOrEqual(Math.ceil(points.length / 2));
  expect(await fingerprint(db), where).toEqual(ref.reference);
  expect(calls.ok - ref.calls, where).toBeLessThanOrEqual(killedAt.length * (w.config.targetConcurrency + w.config.optimizerConcurrency));
}

/** Write counts just after the first checkpoint of each kind (a phase or key with the step prefix removed). */
export function pointsAfter(log: readonly string[], kinds: readonly string[]): number[] {
  return kinds.map((kind) => {
    const [op, suffix] = kind.split(':');
    const at = log.findIndex((w) => w.startsWith(`${op}:`) && w.slice(op.length + 1).replace(/^s\d+/, '') === suffix);
    expect(at, `no ${kind} checkpoint in the reference run`).toBeGreaterThanOrEqual(0);
    return at + 1;
  });
}
