/**
 * Credit assignment for a bundle of edits (issue #8), item by item: which items a candidate
 * broke and fixed against the current skill, whether it improved, whether a validation tie
 * may be accepted, and which edits of a rejected candidate are worth carrying to the next step.
 */
import { isGain, isTie } from './epsilon';
import type { Edit } from '../skill/edits';

/** A row passes when its hard score is above this (the reference's "hard > 0"). */
export const PASS_THRESHOLD = 1e-9;
export const isPass = (hard: number): boolean => hard >= PASS_THRESHOLD;

export interface ItemOutcome {
  itemId: string;
  hard: number;
  soft: number;
}

export interface ItemDelta {
  /** Items both skills were scored on (errored rows are left out of both sides). */
  n: number;
  /** Passed with the current skill, fail with the candidate. */
  regressed: string[];
  /** Failed with the current skill, pass with the candidate. */
  improved: string[];
  before: { hard: number; soft: number };
  after: { hard: number; soft: number };
}

/** Compare two skills on the items both were scored on. */
export function compareOutcomes(before: readonly ItemOutcome[], after: readonly ItemOutcome[]): ItemDelta {
  const prev = new Map(before.map((r) => [r.itemId, r]));
  const d: ItemDelta = { n: 0, regressed: [], improved: [], before: { hard: 0, soft: 0 }, after: { hard: 0, soft: 0 } };
  for (const a of after) {
    const b = prev.get(a.itemId);
    if (!b) continue;
    d.n++;
    d.before.hard += b.hard;
    d.before.soft += b.soft;
    d.after.hard += a.hard;
    d.after.soft += a.soft;
    if (isPass(b.hard) && !isPass(a.hard)) d.regressed.push(a.itemId);
    if (!isPass(b.hard) && isPass(a.hard)) d.improved.push(a.itemId);
  }
  for (const side of [d.before, d.after]) {
    side.hard = d.n ? side.hard / d.n : 0;
    side.soft = d.n ? side.soft / d.n : 0;
  }
  return d;
}

/** Strictly better on hard, or equal on hard and strictly better on soft. */
export function improvedOn(d: ItemDelta): boolean {
  return (
    isGain(d.after.hard - d.before.hard) ||
    (isTie(d.after.hard - d.before.hard) && isGain(d.after.soft - d.before.soft))
  );
}

/**
 * The tie-break for validation-blind improvements: a candidate that ties the current skill on
 * validation is accepted only when it is strictly better on the train batch (hard) and no
 * validation item that passed fails with it (SkillOpt-Sleep's per-task no-regression rule).
 */
export function tieBreakAccepts(a: {
  candidateScore: number;
  currentScore: number;
  trainStrictlyBetter: boolean;
  val: ItemDelta;
}): boolean {
  if (!isTie(a.candidateScore - a.currentScore)) return false;
  if (!a.trainStrictlyBetter) return false;
  return a.val.regressed.length === 0;
}

/** The pool the ranker sees: carried edits first (they keep their mark), then this step's. */
export function poolWithCarried(merged: readonly Edit[], pending: readonly Edit[]): Edit[] {
  // Only the engine marks an edit carried: a mark in a model's reply is ignored.
  return [...pending.map((e) => ({ ...e, carried: true })), ...merged.map(({ carried: _c, ...e }) => e)];
}

/**
 * Edits to carry to the next step: a rejected candidate that improved (on the train batch, or
 * in soft score on validation) keeps its edits, at most `cap`; anything else carries nothing.
 */
export function nextPending(a: { accepted: boolean; promising: boolean; edits: readonly Edit[]; cap: number }): Edit[] {
  if (a.accepted || !a.promising) return [];
  return a.edits.slice(0, Math.max(0, a.cap)).map(({ carried: _carried, ...rest }) => rest);
}
