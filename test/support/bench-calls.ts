/**
 * Where a benchmark run's training target calls went (issue #32): by call stage (core/stages.ts),
 * and how many it took to reach a held-out accuracy — the calls up to the first step whose
 * exported best skill would score that much, the baseline and earlier epoch boundaries included.
 */
import { callStageOfPhase } from '../../src/core/config/stages';
import type { RunStore } from '../../src/engine/ports';
import type { RolloutRow } from '../../src/engine/types';

/** Target calls a row cost: every model turn of an agent's trajectory is one. */
const callsOf = (r: RolloutRow) => r.turns ?? 1;

/** Training target calls by call stage (cache hits and the test split left out by the caller). */
export function callsByStage(rows: readonly RolloutRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) out[callStageOfPhase(r.phase)] = (out[callStageOfPhase(r.phase)] ?? 0) + callsOf(r);
  return out;
}

/** The step a phase belongs to (`s0003/…`), the epoch boundary (`e01/…`, after its epoch's last step), or neither. */
function phaseStep(phase: string): { step: number } | { epoch: number } | null {
  const s = /^s(\d+)\//.exec(phase);
  if (s) return { step: Number(s[1]) };
  const e = /^e(\d+)\//.exec(phase);
  return e ? { epoch: Number(e[1]) } : null;
}

/**
 * Training target calls until the exported best first scores at least `threshold` held-out: after
 * each step, the best skill its record names; after the run, the best it exported. Null: never.
 */
export async function callsToHeldOut(
  store: RunStore,
  runId: string,
  rows: readonly RolloutRow[],
  a: { heldOut: (skill: string) => number; threshold: number; finalBest: string },
): Promise<number | null> {
  const steps = (await store.getSteps(runId)).sort((x, y) => x.step - y.step);
  const versions = await store.getSkillVersions(runId);
  const textOf = (origin: string) => versions.find((v) => v.origin === origin)?.text;
  const before = (step: number, epoch: number) =>
    rows.reduce((n, r) => {
      const at = phaseStep(r.phase);
      const inside = at === null ? r.phase.startsWith('baseline') : 'step' in at ? at.step <= step : at.epoch < epoch;
      return n + (inside ? callsOf(r) : 0);
    }, 0);
  for (const s of steps) {
    const best = textOf(s.bestOrigin);
    if (best !== undefined && a.heldOut(best) >= a.threshold - 1e-9) return before(s.step, s.epoch);
  }
  return a.heldOut(a.finalBest) >= a.threshold - 1e-9 ? rows.reduce((n, r) => n + callsOf(r), 0) : null;
}
