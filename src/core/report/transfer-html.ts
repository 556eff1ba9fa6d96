/**
 * Transfer in the HTML report (issue #42 item 5): the lift of the best skill over the starting one
 * under each target, with its interval, and a ranking flip said first. Every text escaped.
 */
import { liftWords } from '../verdict/transfer';
import { escapeHtml, isNum } from './html';
import { transferLifts } from './transfer-lifts';

const pct = (v: number | null) => (isNum(v) ? `${(v * 100).toFixed(1)}%` : '—');
const READS = { above: 'a real gain', below: 'a real loss', unsure: 'cannot be told from noise' } as const;

export function transferSection(transfer: unknown): string {
  const t = transferLifts(transfer);
  if (!t) return '';
  const rows = t.rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.label)}${r.trained ? ' (trained on)' : ''}</td><td>${pct(r.initial)}</td><td>${pct(r.best)}</td><td>${escapeHtml(liftWords({ shown: r.lift, interval: r.interval, level: r.level }))}</td><td>${READS[r.side]}</td></tr>`,
    )
    .join('');
  const verdict = t.verdict.words
    ? `<p class="${t.verdict.flipped ? 'flip' : 'doubt'}"><strong>${t.verdict.flipped ? '⚠ ' : ''}${escapeHtml(t.verdict.words)}</strong></p>`
    : '<p>The lift holds on every target that could tell it from noise.</p>';
  return `<h2>Transfer: the lift under each target</h2>
${verdict}
<table><thead><tr><th>Target</th><th>Starting skill</th><th>Best skill</th><th>Lift</th><th>Reads</th></tr></thead><tbody>${rows}</tbody></table>
<p class="meta">The starting and the best skill scored on the same test items under each target. A ranking flip: the best skill surely below the starting one on a confirming target, or sure lifts of opposite signs (an interval clear of zero is sure).</p>
`;
}
