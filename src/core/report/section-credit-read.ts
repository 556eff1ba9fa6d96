/**
 * A run's section credit as the report and the Runs screen show it (issue #43 item 4), read from a
 * summary that may come from an imported bundle and so hold anything: every figure is checked to be
 * a number and every verdict one we know, or the row is left out; a malformed credit reads as none.
 */
import { isNum } from './html';
import type { SectionCredit, SectionVerdict } from '../verdict/section-credit';

const VERDICTS: readonly SectionVerdict[] = ['helps', 'harms', 'nil', 'kept'];

/** A section's credit as the report shows it: the engine's fields, read back from a stored summary. */
export type CreditRow = Pick<
  SectionCredit,
  'title' | 'startLine' | 'endLine' | 'effect' | 'low' | 'high' | 'verdict' | 'tokens' | 'costUsd' | 'liftPerCent'
>;

export type ReadCredit =
  | {
      ok: true;
      rows: CreditRow[];
      base: number;
      skillTokens: number;
      skillCostUsd: number | null;
      liftPerCent: number | null;
      /** Titles of the sections harmful or without evidence of help. */
      droppable: string[];
      items: number;
      masks: number;
      calls: number;
      budget: number;
      errors: number;
      costUsd: number;
      level: number;
    }
  | { ok: false; reason: string; budget: number };

type Loose = Record<string, unknown>;
const obj = (v: unknown): Loose | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : null);
const numOr = (v: unknown, or: number | null) => (isNum(v) ? v : or);

function rowOf(v: unknown): CreditRow | null {
  const s = obj(v);
  if (!s || typeof s.title !== 'string' || !VERDICTS.includes(s.verdict as SectionVerdict)) return null;
  if (!isNum(s.startLine) || !isNum(s.endLine) || !isNum(s.tokens)) return null;
  const measured = s.verdict !== 'kept';
  if (measured && !(isNum(s.effect) && isNum(s.low) && isNum(s.high))) return null;
  return {
    title: s.title,
    startLine: s.startLine,
    endLine: s.endLine,
    effect: measured ? (s.effect as number) : null,
    low: measured ? (s.low as number) : null,
    high: measured ? (s.high as number) : null,
    verdict: s.verdict as SectionVerdict,
    tokens: s.tokens,
    costUsd: numOr(s.costUsd, null),
    liftPerCent: numOr(s.liftPerCent, null),
  };
}

export function readSectionCredit(v: unknown): ReadCredit | null {
  const c = obj(v);
  if (!c || !isNum(c.budget)) return null;
  if (c.ok === false) return typeof c.reason === 'string' ? { ok: false, reason: c.reason, budget: c.budget } : null;
  const r = obj(c.report);
  if (c.ok !== true || !r || !Array.isArray(r.sections) || !isNum(r.base) || !isNum(r.skillTokens)) return null;
  const rows = r.sections.map(rowOf);
  if (rows.some((x) => x === null)) return null;
  const plan = obj(c.plan);
  const droppable = Array.isArray(r.droppable) ? r.droppable : [];
  return {
    ok: true,
    rows: rows as CreditRow[],
    base: r.base,
    skillTokens: r.skillTokens,
    skillCostUsd: numOr(r.skillCostUsd, null),
    liftPerCent: numOr(r.liftPerCent, null),
    droppable: droppable.flatMap((i) => (isNum(i) && rows[i] ? [rows[i].title] : [])),
    items: numOr(plan?.items, 0)!,
    masks: numOr(c.masks, 0)!,
    calls: numOr(c.calls, 0)!,
    budget: c.budget,
    errors: numOr(c.errors, 0)!,
    costUsd: numOr(c.costUsd, 0)!,
    level: numOr(r.level, 0.95)!,
  };
}

/** Pass^1 points, signed: "+18.8", "−43.8" (a rounding's −0.0 reads +0.0). */
export function signedPoints(v: number): string {
  const shown = Math.abs(v * 100).toFixed(1);
  return `${v >= 0 || Number(shown) === 0 ? '+' : '−'}${shown}`;
}

/** What a verdict means, in the words every surface uses. */
export const CREDIT_VERDICT_TEXT: Record<SectionVerdict, string> = {
  helps: 'helps: its whole interval is above zero',
  harms: 'harms: its whole interval is below zero',
  nil: 'no evidence it helps: its interval holds zero',
  kept: 'not measured: it holds a protected region, which is never masked',
};
