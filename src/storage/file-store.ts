/**
 * The headless runner's durable store (issue #22; beside the IndexedDB one since issue #29): an
 * append-only file of the same records the page keeps in IndexedDB, one JSON line each — the
 * dataset and the run record, then every state, rollout, call, artifact, step and skill version
 * as it is written. Opening the file replays it
 * into memory. Each write is appended before it returns, so a killed process loses at most the
 * calls in flight; a torn last line (the process died mid-write) is cut off on reopening, before
 * anything is appended after it. A file that is mostly records written over since is rewritten
 * with what it holds now when it is opened.
 *
 * Why a file and not SQLite: a native module's install downloads a prebuilt binary, which not
 * every machine may do; and one line per record is exactly the page's bundle, row by row.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import type { RunStore } from '../engine/ports';
import type {
  ArtifactRecord,
  OptimizerCallRecord,
  RolloutRow,
  RunState,
  SkillVersion,
  StepRecord,
} from '../engine/types';
import type { DatasetRecord, RunRecord, RunRowKind, RunRows } from './schema';
import type { RunBundle } from './bundle';
import { versionOrder } from './version-order';

type Line =
  | { t: 'run'; v: RunRecord }
  | { t: 'dataset'; v: DatasetRecord }
  | { t: 'state'; v: RunState }
  | { t: 'rollout'; v: RolloutRow }
  | { t: 'call'; v: OptimizerCallRecord }
  | { t: 'artifact'; v: ArtifactRecord }
  | { t: 'artifact-deleted'; v: { key: string } }
  | { t: 'step'; v: StepRecord }
  | { t: 'skill'; v: SkillVersion };

const copy = <T>(v: T): T => structuredClone(v);

/** A store file with a line that is not a record (not a torn last one): the runner names it and stops. */
/** Versions made in the same millisecond at one step: in their origins' order, as IndexedDB keeps them. */

export class DamagedStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DamagedStoreError';
  }
}

export class FileRunStore implements RunStore {
  run: RunRecord | null = null;
  dataset: DatasetRecord | null = null;
  private state: RunState | undefined;
  private readonly rollouts = new Map<string, RolloutRow>();
  /** The first ok row of each cache key: the rollout cache's lookups stay O(1). */
  private readonly okByCache = new Map<string, RolloutRow>();
  private readonly calls = new Map<string, OptimizerCallRecord>();
  private readonly artifacts = new Map<string, ArtifactRecord>();
  private readonly steps = new Map<number, StepRecord>();
  private readonly skills = new Map<string, SkillVersion>();

  private constructor(readonly path: string) {}

  /**
   * Open a store file, replaying what it holds; a missing file is an empty store. Every record
   * ends with a line break, so text after the last one is a record torn by a crash: it is cut
   * off here, or the next record would be appended to it and the file could never be read again.
   */
  static open(path: string): FileRunStore {
    const store = new FileRunStore(path);
    if (!existsSync(path)) return store;
    const bytes = readFileSync(path);
    const end = bytes.lastIndexOf(0x0a) + 1;
    if (end < bytes.length) truncateSync(path, end);
    const lines = bytes.subarray(0, end).toString('utf8').split('\n');
    lines.forEach((text, i) => {
      if (!text.trim()) return;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch (e) {
        throw new DamagedStoreError(
          `${path}, line ${i + 1}: not a record (${e instanceof Error ? e.message : String(e)}): the run's store is damaged.`,
        );
      }
      store.apply(line);
    });
    store.compact(end);
    return store;
  }

  /**
   * Rewrite the file with only the records it holds now (issue #39 M4), when more than half of it
   * is records written over since (a trajectory's checkpoints, states): so a long run's file grows
   * with what it keeps, not with every version of it. Written beside it and renamed over it, so a
   * crash leaves one whole file or the other. Every rollout row the cache may still find is kept.
   */
  private compact(bytes: number): void {
    const ok = new Set(this.okByCache.values());
    const rollouts = [...ok, ...[...this.rollouts.values()].filter((r) => !ok.has(r))];
    const lines: Line[] = [
      ...(this.run ? [{ t: 'run' as const, v: this.run }] : []),
      ...(this.dataset ? [{ t: 'dataset' as const, v: this.dataset }] : []),
      ...(this.state ? [{ t: 'state' as const, v: this.state }] : []),
      ...[...this.skills.values()].map((v) => ({ t: 'skill' as const, v })),
      ...[...this.steps.values()].map((v) => ({ t: 'step' as const, v })),
      ...rollouts.map((v) => ({ t: 'rollout' as const, v })),
      ...[...this.calls.values()].map((v) => ({ t: 'call' as const, v })),
      ...[...this.artifacts.values()].map((v) => ({ t: 'artifact' as const, v })),
    ];
    let size = 0;
    const text: string[] = [];
    for (const line of lines) {
      const t = `${JSON.stringify(line)}\n`;
      size += Buffer.byteLength(t);
      if (size * 2 > bytes) return; // mostly live: appending on is cheaper than rewriting
      text.push(t);
    }
    const next = `${this.path}.compact`;
    writeFileSync(next, text.join(''));
    renameSync(next, this.path);
  }

  /**
   * Hold a bundle's run (a run exported from the page, to continue here) in this empty store: like
   * an import on the page, it is read-only (`needsBinding`) until bound to the config's endpoints.
   */
  holdBundle(b: RunBundle): void {
    if (this.run) throw new Error(`${this.path} already holds a run.`);
    const { state, ...run } = b.run;
    const status = run.status === 'running' ? 'interrupted' : run.status;
    this.write({ t: 'run', v: { ...run, status, needsBinding: true } });
    if (b.dataset) this.write({ t: 'dataset', v: b.dataset });
    if (state) this.write({ t: 'state', v: { ...state, status } });
    for (const v of b.skills) this.write({ t: 'skill', v });
    for (const v of b.steps) this.write({ t: 'step', v });
    for (const v of b.rollouts) this.write({ t: 'rollout', v });
    for (const v of b.calls) this.write({ t: 'call', v });
    for (const v of b.artifacts) this.write({ t: 'artifact', v });
  }

  private apply(line: Line): void {
    switch (line.t) {
      case 'run':
        this.run = line.v;
        break;
      case 'dataset':
        this.dataset = line.v;
        break;
      case 'state':
        this.state = line.v;
        break;
      case 'rollout':
        this.rollouts.set(`${line.v.phase}|${line.v.order}`, line.v);
        if (line.v.status === 'ok' && !this.okByCache.has(line.v.cacheKey)) this.okByCache.set(line.v.cacheKey, line.v);
        break;
      case 'call':
        this.calls.set(line.v.key, line.v);
        break;
      case 'artifact':
        this.artifacts.set(line.v.key, line.v);
        break;
      case 'artifact-deleted':
        this.artifacts.delete(line.v.key);
        break;
      case 'step':
        this.steps.set(line.v.step, line.v);
        break;
      case 'skill':
        if (!this.skills.has(line.v.origin)) this.skills.set(line.v.origin, line.v);
        break;
    }
  }

  /** Append one record, then hold it in memory. */
  write(line: Line): void {
    appendFileSync(this.path, `${JSON.stringify(line)}\n`);
    this.apply(copy(line));
  }

  async loadState() {
    return this.state && copy(this.state);
  }
  async saveState(state: RunState) {
    this.write({ t: 'state', v: state });
    if (this.run) this.write({ t: 'run', v: { ...this.run, status: state.status, updatedAt: state.updatedAt } });
  }
  async putRollout(row: RolloutRow) {
    this.write({ t: 'rollout', v: row });
  }
  async getRollouts(_runId: string, phase: string) {
    return [...this.rollouts.values()]
      .filter((r) => r.phase === phase)
      .sort((a, b) => a.order - b.order)
      .map(copy);
  }
  async listRollouts() {
    return [...this.rollouts.values()].map(copy);
  }
  async findRollout(_runId: string, cacheKey: string) {
    const r = this.okByCache.get(cacheKey);
    return r && copy(r);
  }
  async putCall(record: OptimizerCallRecord) {
    this.write({ t: 'call', v: record });
  }
  async getCall(_runId: string, key: string) {
    const c = this.calls.get(key);
    return c && copy(c);
  }
  async listCalls() {
    return [...this.calls.values()].map(copy);
  }
  async putArtifact(record: ArtifactRecord) {
    this.write({ t: 'artifact', v: record });
  }
  async deleteArtifact(_runId: string, key: string) {
    this.write({ t: 'artifact-deleted', v: { key } });
  }
  async getArtifact(_runId: string, key: string) {
    const a = this.artifacts.get(key);
    return a && copy(a);
  }
  async putStep(record: StepRecord) {
    this.write({ t: 'step', v: record });
  }
  async getSteps() {
    return [...this.steps.values()].sort((a, b) => a.step - b.step).map(copy);
  }
  async putSkillVersion(v: SkillVersion) {
    if (!this.skills.has(v.origin)) this.write({ t: 'skill', v });
  }
  async getSkillVersions() {
    return [...this.skills.values()].sort(versionOrder).map(copy);
  }

  /** A kind of the run's rows, in the order of their keys (IndexedDB's order, so both hosts' bundles agree). */
  rows<K extends RunRowKind>(kind: K): RunRows[K][] {
    const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = <T>(xs: Iterable<T>, order: (a: T, b: T) => number) => [...xs].sort(order).map(copy);
    const rows: { [R in RunRowKind]: () => RunRows[R][] } = {
      steps: () => sorted(this.steps.values(), (a, b) => a.step - b.step),
      skills: () => sorted(this.skills.values(), (a, b) => cmp(a.origin, b.origin)),
      rollouts: () => sorted(this.rollouts.values(), (a, b) => cmp(a.phase, b.phase) || a.order - b.order),
      calls: () => sorted(this.calls.values(), (a, b) => cmp(a.key, b.key)),
      artifacts: () => sorted(this.artifacts.values(), (a, b) => cmp(a.key, b.key)),
    };
    return rows[kind]() as RunRows[K][];
  }
}
