/**
 * The engine's RunStore on IndexedDB. Each method is one short transaction; no transaction is
 * ever held across an LLM call (the engine awaits calls between writes, never inside one).
 */
import type { RunStore } from '../engine/ports';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, RunState } from '../engine/types';
import type { SkillVersion, StepRecord } from '../engine/types';
import type { SkillwrightDb } from './open-db';
import { guardQuota } from './quota';
import { withStatus } from './runs-repo';
import { versionOrder } from './version-order';

/** Versions made in the same millisecond at one step: in their origins' order, as IndexedDB keeps them. */

export class IdbRunStore implements RunStore {
  constructor(
    private readonly db: SkillwrightDb,
    private readonly estimate?: () => Promise<{ usage?: number; quota?: number }>,
  ) {}

  private write<T>(fn: () => Promise<T>): Promise<T> {
    return guardQuota(fn, this.estimate);
  }

  async loadState(runId: string): Promise<RunState | undefined> {
    return (await this.db.get('runs', runId))?.state;
  }

  saveState(state: RunState): Promise<void> {
    return this.write(async () => {
      const tx = this.db.transaction('runs', 'readwrite');
      const run = await tx.store.get(state.runId);
      if (!run) throw new Error(`run ${state.runId} does not exist`);
      // The engine's state carries its status; withStatus keeps the record's in step with it.
      await tx.store.put({ ...withStatus({ ...run, state }, state.status), updatedAt: state.updatedAt });
      await tx.done;
    });
  }

  putRollout(row: RolloutRow): Promise<void> {
    return this.write(async () => void (await this.db.put('rollouts', row)));
  }

  getRollouts(runId: string, phase: string): Promise<RolloutRow[]> {
    return this.db.getAllFromIndex('rollouts', 'by-run-phase', [runId, phase]);
  }

  listRollouts(runId: string): Promise<RolloutRow[]> {
    return this.db.getAllFromIndex('rollouts', 'by-run', runId);
  }

  async findRollout(runId: string, cacheKey: string): Promise<RolloutRow | undefined> {
    const rows = await this.db.getAllFromIndex('rollouts', 'by-cache', [runId, cacheKey]);
    // The rollout that made the call first: a cache hit's row holds no usage (section credit reads its tokens).
    return rows.find((r) => r.status === 'ok' && !r.cached) ?? rows.find((r) => r.status === 'ok');
  }

  putCall(record: OptimizerCallRecord): Promise<void> {
    return this.write(async () => void (await this.db.put('calls', record)));
  }

  getCall(runId: string, key: string): Promise<OptimizerCallRecord | undefined> {
    return this.db.get('calls', [runId, key]);
  }

  listCalls(runId: string): Promise<OptimizerCallRecord[]> {
    return this.db.getAllFromIndex('calls', 'by-run', runId);
  }

  putArtifact(record: ArtifactRecord): Promise<void> {
    return this.write(async () => void (await this.db.put('artifacts', record)));
  }

  deleteArtifact(runId: string, key: string): Promise<void> {
    return this.write(async () => void (await this.db.delete('artifacts', [runId, key])));
  }

  getArtifact(runId: string, key: string): Promise<ArtifactRecord | undefined> {
    return this.db.get('artifacts', [runId, key]);
  }

  putStep(record: StepRecord): Promise<void> {
    return this.write(async () => void (await this.db.put('steps', record)));
  }

  getSteps(runId: string): Promise<StepRecord[]> {
    return this.db.getAll('steps', IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]));
  }

  putSkillVersion(v: SkillVersion): Promise<void> {
    return this.write(async () => {
      // First write wins: a resumed stage that saves its version again keeps the original's time.
      const tx = this.db.transaction('skills', 'readwrite');
      if (!(await tx.store.get([v.runId, v.origin]))) await tx.store.put(v);
      await tx.done;
    });
  }

  async getSkillVersions(runId: string): Promise<SkillVersion[]> {
    const all = await this.db.getAllFromIndex('skills', 'by-run', runId);
    return all.sort(versionOrder);
  }
}
