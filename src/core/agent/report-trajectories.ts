/**
 * An agent run's trajectories in its HTML report (issue #30): those of the exported skill on the
 * held-out test items — the failures first (what the skill still gets wrong), then a few that
 * passed — each as the analysts read it.
 */
import { conversationLines } from './transcript';
import type { TrajectoryEntry } from './trajectory';

export interface TrajectoryRowLike {
  itemId: string;
  phase: string;
  status: string;
  hard: number;
  failReason?: string;
  trajectory?: TrajectoryEntry[];
  turns?: number;
}

export interface ReportTrajectory {
  itemId: string;
  passed: boolean;
  failReason?: string;
  turns: number;
  lines: string[];
}

/** The test phase of the exported skill: a run that was not tested shows its last train batch. */
const BEST_TEST = 'test/best';

export function reportTrajectories(
  rows: readonly TrajectoryRowLike[],
  resultChars: number,
  limit = { failed: 8, passed: 3 },
): ReportTrajectory[] {
  const agents = rows.filter((r) => r.trajectory && r.status === 'ok');
  const tested = agents.filter((r) => r.phase === BEST_TEST);
  const lastPhase = agents.length ? agents[agents.length - 1].phase : '';
  const pool = tested.length ? tested : agents.filter((r) => r.phase === lastPhase);
  const pick = (passed: boolean, n: number) => pool.filter((r) => r.hard >= 1 === passed).slice(0, n);
  return [...pick(false, limit.failed), ...pick(true, limit.passed)].map((r) => ({
    itemId: r.itemId,
    passed: r.hard >= 1,
    ...(r.failReason ? { failReason: r.failReason } : {}),
    turns: r.turns ?? 0,
    lines: conversationLines(r.trajectory!, resultChars),
  }));
}
