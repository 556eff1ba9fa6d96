/**
 * Everything stored about one step, read in one go for the step inspector: its record, its
 * rollouts, calls and artifacts, the skill it started from, and the current skill's rows on
 * the items its candidate was gated on.
 */
import { stepKey } from '../engine/keys';
import { skillHash } from '../core/basics/hash';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, SkillVersion, StepRecord } from '../engine/types';
import type { RunRecord } from '../storage/schema';
import type { RunRecords } from './ports';
import { parseOrigin } from '../core/skill/version-origin';

export interface StepRecords {
  step: StepRecord;
  rollouts: RolloutRow[];
  gateRollouts: RolloutRow[];
  /** The current skill's scored rows on the gate's items (improved / regressed / unchanged). */
  currentRollouts: RolloutRow[];
  calls: OptimizerCallRecord[];
  artifacts: ArtifactRecord[];
  /** The skill the step started from (null when it cannot be told). */
  skillBefore: string | null;
  /** Stored skill texts by hash (accepted candidates are versions). */
  versions: Map<string, string>;
}

/** What every step of a run shares: read once by a caller that reads many steps (report, blame). */
export interface RunRecordsShared {
  versions: SkillVersion[];
  run: RunRecord | undefined;
}

export async function readRunShared(records: RunRecords, runId: string): Promise<RunRecordsShared> {
  const [versions, run] = await Promise.all([records.getSkillVersions(runId), records.getRun(runId)]);
  return { versions, run };
}

export async function readStepRecords(
  records: RunRecords,
  runId: string,
  step: number,
  shared?: RunRecordsShared,
): Promise<StepRecords | null> {
  const record = await records.getStep(runId, step);
  if (!record) return null;
  const key = stepKey(step);
  const [rollouts, gateRollouts, calls, artifacts, prev, { versions, run }] = await Promise.all([
    records.getRollouts(runId, `${key}/rollout`),
    records.getRollouts(runId, `${key}/gate`),
    records.callsUnder(runId, `${key}/`),
    records.artifactsUnder(runId, `${key}/`),
    step > 1 ? records.getStep(runId, step - 1) : Promise.resolve(undefined),
    shared ?? readRunShared(records, runId),
  ]);
  let before: string | null = step === 1 ? (run?.initialSkill ?? null) : null;
  // The skill whose scored rows stand for `before`'s: itself, except after the epoch-1 slow-update
  // placeholder, which only adds an empty block and carries the score of the skill it was placed in.
  let scoredAs = before;
  if (prev) {
    // The skill this step started from: the latest version made at or before the previous step.
    const made = versions
      .filter((v) => v.step <= prev.step)
      .sort((a, b) => a.step - b.step || a.createdAt - b.createdAt);
    before = made.length ? made[made.length - 1].text : (run?.initialSkill ?? null);
    const last = made.length > 0 ? parseOrigin(made[made.length - 1].origin) : null;
    const placeholder = last?.kind === 'slow_update' && last.placeholder;
    scoredAs = placeholder ? (made.length > 1 ? made[made.length - 2].text : (run?.initialSkill ?? null)) : before;
  }
  const currentRollouts: RolloutRow[] = [];
  if (scoredAs !== null) {
    // One read of the skill's rows, not one read per gate item (issue #20 item 17).
    const rows = await records.skillRows(runId, await skillHash(scoredAs));
    const okByItem = new Map<string, RolloutRow>();
    for (const r of rows) if (r.status === 'ok' && !okByItem.has(r.itemId)) okByItem.set(r.itemId, r);
    for (const g of gateRollouts) {
      const okRow = okByItem.get(g.itemId);
      if (okRow) currentRollouts.push(okRow);
    }
  }
  return {
    step: record,
    rollouts,
    gateRollouts,
    currentRollouts,
    calls,
    artifacts,
    skillBefore: before,
    versions: new Map(versions.map((v) => [v.hash, v.text])),
  };
}
