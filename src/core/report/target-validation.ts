/**
 * The best skill's validation under each target of a run that several targets gated (issue #42
 * item 5): the trained target's first, then each other — for the closing lines, `--json` and the
 * HTML report. Read from a stored summary, which may come from an imported file: each row checked.
 */
import { escapeHtml, isNum } from './html';

export interface TargetValidationRow {
  label: string;
  trained: boolean;
  initial: number;
  best: number;
}

/** The rows, the trained target's first; null when the run had no other target (or its record is unreadable). */
export function targetValidationRows(
  trained: { label: string; initial: number | null; best: number | null },
  others: unknown,
): TargetValidationRow[] | null {
  if (!Array.isArray(others) || !others.length) return null;
  const rows: TargetValidationRow[] = [];
  for (const o of others) {
    const r = o as Partial<TargetValidationRow>;
    if (typeof r?.label !== 'string' || !isNum(r.initial) || !isNum(r.best)) return null;
    rows.push({ label: r.label, trained: false, initial: r.initial, best: r.best });
  }
  const own = { label: trained.label, trained: true, initial: trained.initial ?? NaN, best: trained.best ?? NaN };
  return [own, ...rows];
}

const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : '—');

/** The report's section: a row per target, the starting and the best skill on validation. */
export function targetValidationSection(rows: readonly TargetValidationRow[] | null): string {
  if (!rows) return '';
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.label)}${r.trained ? ' (trained on)' : ''}</td><td>${pct(r.initial)}</td><td>${pct(r.best)}</td></tr>`,
    )
    .join('');
  return `<h2>Validation under each target that gated</h2>
<table><thead><tr><th>Target</th><th>Starting skill</th><th>Best skill</th></tr></thead><tbody>${body}</tbody></table>
<p class="meta">Every candidate was accepted only if no other target found it worse on validation. The other targets' scores are the share of validation items their first answer passed; the trained target's, the gate's score.</p>
`;
}
