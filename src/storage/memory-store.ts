/**
 * A RunStore in memory: for Node tests, the benchmark, and as the reference behaviour the
 * IndexedDB store must match. Values are deep-copied on the way in and out, as a database would.
 */
import type { RunStore } from '../engine/ports';
import type {
  ArtifactRecord,
  OptimizerCallRecord,
  RolloutRow,
  RunState,
  SkillVersion,
  StepRecord,
} from '../engine/types';
import { versionOrder } from './version-order';

const copy = <T>(v: T): T => structuredClone(v);

export class MemoryRunStore implements RunStore {
  private readonly states = new Map<string, RunState>();
  private readonly rollouts = new Map<string, RolloutRow>(); // runId|phase|itemId|order
  private readonly byCacheKey = new Map<string, RolloutRow>(); // runId|cacheKey → an ok row
  private readonly calls = new Map<string, OptimizerCallRecord>();
  private readonly artifacts = new Map<string, ArtifactRecord>();
  private readonly steps = new Map<string, StepRecord>();
  private readonly versions = new Map<string, SkillVersion>();
  /** Count of writes, for measuring checkpoint volume. */
  writes = 0;

  async loadState(runId: string) {
    const s = this.states.get(runId);
    return s && copy(s);
  }
  async saveState(state: RunState) {
    this.writes++;
    this.states.set(state.runId, copy(state));
  }
  async putRollout(row: RolloutRow) {
    this.writes++;
    this.rollouts.set(`${row.runId}|${row.phase}|${row.order}`, copy(row));
    if (row.status === 'ok') this.byCacheKey.set(`${row.runId}|${row.cacheKey}`, copy(row));
  }
  async getRollouts(runId: string, phase: string) {
    return [...this.rollouts.values()]
      .filter((r) => r.runId === runId && r.phase === phase)
      .sort((a, b) => a.order - b.order)
      .map(copy);
  }
  async listRollouts(runId: string) {
    return [...this.rollouts.values()].filter((r) => r.runId === runId).map(copy);
  }
  async findRollout(runId: string, cacheKey: string) {
    const r = this.byCacheKey.get(`${runId}|${cacheKey}`);
    return r && copy(r);
  }
  async putCall(record: OptimizerCallRecord) {
    this.writes++;
    this.calls.set(`${record.runId}|${record.key}`, copy(record));
  }
  async getCall(runId: string, key: string) {
    const r = this.calls.get(`${runId}|${key}`);
    return r && copy(r);
  }
  async listCalls(runId: string) {
    return [...this.calls.values()].filter((c) => c.runId === runId).map(copy);
  }
  async putArtifact(record: ArtifactRecord) {
    this.writes++;
    this.artifacts.set(`${record.runId}|${record.key}`, copy(record));
  }
  async deleteArtifact(runId: string, key: string) {
    this.writes++;
    this.artifacts.delete(`${runId}|${key}`);
  }
  async getArtifact(runId: string, key: string) {
    const r = this.artifacts.get(`${runId}|${key}`);
    return r && copy(r);
  }
  async putStep(record: StepRecord) {
    this.writes++;
    this.steps.set(`${record.runId}|${record.step}`, copy(record));
  }
  async getSteps(runId: string) {
    return [...this.steps.values()]
      .filter((s) => s.runId === runId)
      .sort((a, b) => a.step - b.step)
      .map(copy);
  }
  async putSkillVersion(v: SkillVersion) {
    this.writes++;
    if (!this.versions.has(`${v.runId}|${v.origin}`)) this.versions.set(`${v.runId}|${v.origin}`, copy(v));
  }
  async getSkillVersions(runId: string) {
    return [...this.versions.values()]
      .filter((v) => v.runId === runId)
      .sort(versionOrder)
      .map(copy);
  }
}
