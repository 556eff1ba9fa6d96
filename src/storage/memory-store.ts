/**
 * A RunStore in memory: for Node tests, the benchmark, and as the reference behaviour the
 * IndexedDB store must match. Values are deep-copied on the way in and out, as a database would.
 */
import type { RunStore } from '../engine/ports';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, RunState } from '../engine/types';
import type { SkillVersion, StepRecord } from '../engine/types';
import { versionOrder } from './version-order';

const copy = <T>(v: T): T => structuredClone(v);

export class MemoryRunStore implements RunStore {
  private readonly states = new Map<string, RunState>();
  private readonly rollouts = new Map<string, RolloutRow>(); // runId|phase|itemId|order
  private readonly byCacheKey = new Map<string, RolloutRow>(); // runId|cacheKey → an ok row, a called one first
  private readonly calls = new Map<string, OptimizerCallRecord>();
  private readonly artifacts = new Map<string, ArtifactRecord>();
  private readonly steps = new Map<string, StepRecord>();
  private readonly versions = new Map<string, SkillVersion>();
  /** Count of writes, for measuring checkpoint volume. */
  writes = 0;

  /** Write a copy under its key (every write counts). */
  private put<T>(map: Map<string, T>, key: string, value: T): void {
    this.writes++;
    map.set(key, copy(value));
  }
  /** A copy of what is under the key, or undefined. */
  private read<T>(map: Map<string, T>, key: string): T | undefined {
    const v = map.get(key);
    return v && copy(v);
  }
  /** Copies of one run's values, in their order. */
  private ofRun<T extends { runId: string }>(map: Map<string, T>, runId: string, order?: (a: T, b: T) => number): T[] {
    const rows = [...map.values()].filter((v) => v.runId === runId);
    return (order ? rows.sort(order) : rows).map(copy);
  }

  async loadState(runId: string) {
    return this.read(this.states, runId);
  }
  async saveState(state: RunState) {
    this.put(this.states, state.runId, state);
  }
  async putRollout(row: RolloutRow) {
    this.put(this.rollouts, `${row.runId}|${row.phase}|${row.order}`, row);
    // The rollout that made the call is kept over later cache hits: it holds the usage (section credit's tokens).
    const key = `${row.runId}|${row.cacheKey}`;
    if (row.status === 'ok' && (!row.cached || !this.byCacheKey.has(key))) this.byCacheKey.set(key, copy(row));
  }
  async getRollouts(runId: string, phase: string) {
    // One phase's rows only are copied: a verdict reads its phases after every wave (issue #45).
    const rows = [...this.rollouts.values()].filter((r) => r.runId === runId && r.phase === phase);
    return rows.sort((a, b) => a.order - b.order).map(copy);
  }
  async listRollouts(runId: string) {
    return this.ofRun(this.rollouts, runId);
  }
  async findRollout(runId: string, cacheKey: string) {
    return this.read(this.byCacheKey, `${runId}|${cacheKey}`);
  }
  async putCall(record: OptimizerCallRecord) {
    this.put(this.calls, `${record.runId}|${record.key}`, record);
  }
  async getCall(runId: string, key: string) {
    return this.read(this.calls, `${runId}|${key}`);
  }
  async listCalls(runId: string) {
    return this.ofRun(this.calls, runId);
  }
  async putArtifact(record: ArtifactRecord) {
    this.put(this.artifacts, `${record.runId}|${record.key}`, record);
  }
  async deleteArtifact(runId: string, key: string) {
    this.writes++;
    this.artifacts.delete(`${runId}|${key}`);
  }
  async getArtifact(runId: string, key: string) {
    return this.read(this.artifacts, `${runId}|${key}`);
  }
  async putStep(record: StepRecord) {
    this.put(this.steps, `${record.runId}|${record.step}`, record);
  }
  async getSteps(runId: string) {
    return this.ofRun(this.steps, runId, (a, b) => a.step - b.step);
  }
  async putSkillVersion(v: SkillVersion) {
    // First write wins: a resumed stage that saves its version again keeps the original's time.
    if (this.versions.has(`${v.runId}|${v.origin}`)) this.writes++;
    else this.put(this.versions, `${v.runId}|${v.origin}`, v);
  }
  async getSkillVersions(runId: string) {
    return this.ofRun(this.versions, runId, versionOrder);
  }
}
