/**
 * Edit-budget schedules — the "textual learning rate" (algorithm doc §4.1).
 * step() advances an internal counter and then returns the budget, so the first step uses
 * t = 1/T, step T returns the minimum, and later steps plateau there.
 */
export const SCHEDULE_KINDS = ['constant', 'linear', 'cosine', 'autonomous'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** The budget the autonomous scheduler returns: in effect, no cap. */
export const UNCAPPED_BUDGET = 999;

/**
 * Round half to even, exactly as Python's round() does: only a double that is exactly a half
 * is a tie (2.500000000000001 rounds to 3). `x - floor(x)` is exact for doubles, so no epsilon.
 */
export function bankersRound(x: number): number {
  const floor = Math.floor(x);
  if (x - floor === 0.5) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(x);
}

/** The budget at 1-indexed step k of T steps. */
export function budgetAt(kind: ScheduleKind, max: number, min: number, totalSteps: number, k: number): number {
  if (kind === 'autonomous') return UNCAPPED_BUDGET;
  if (kind === 'constant' || totalSteps <= 1) return max;
  const t = Math.min(Math.max(k, 0), totalSteps) / totalSteps;
  const raw = kind === 'linear' ? max + (min - max) * t : min + 0.5 * (max - min) * (1 + Math.cos(Math.PI * t));
  return Math.max(min, bankersRound(raw));
}

export interface ScheduleState {
  kind: ScheduleKind;
  max: number;
  min: number;
  totalSteps: number;
  /** Steps taken so far; serialised with the run so a resumed run continues where it was. */
  stepsTaken: number;
}

export function createSchedule(kind: ScheduleKind, max: number, min: number, totalSteps: number): ScheduleState {
  return { kind, max, min, totalSteps, stepsTaken: 0 };
}

/** Advance the schedule and return the new state and this step's budget (pure). */
export function stepSchedule(s: ScheduleState): { state: ScheduleState; budget: number } {
  const stepsTaken = s.stepsTaken + 1;
  return { state: { ...s, stepsTaken }, budget: budgetAt(s.kind, s.max, s.min, s.totalSteps, stepsTaken) };
}

/** The whole sequence of budgets for T steps (for previews and charts). */
export function scheduleSequence(kind: ScheduleKind, max: number, min: number, totalSteps: number): number[] {
  return Array.from({ length: totalSteps }, (_, i) => budgetAt(kind, max, min, totalSteps, i + 1));
}
