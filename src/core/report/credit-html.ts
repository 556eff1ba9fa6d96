/**
 * Section credit in the HTML report (issue #43 item 4): each section of the best skill with its effect
 * on pass^1 and interval, its verdict, its prompt tokens and cost per task and the lift per added cent;
 * the skill's own cost per task; the sections worth offering to drop. Every text escaped.
 */
import { escapeHtml, isNum } from './html';
import { CREDIT_VERDICT_TEXT, readSectionCredit, signedPoints } from './section-credit-read';

const usd = (v: number | null) => (isNum(v) ? `$${v.toFixed(6)}` : 'no price');

export function creditSection(credit: unknown): string {
  const c = readSectionCredit(credit);
  if (!c) return '';
  if (!c.ok)
    return `<h2>Section credit of the best skill</h2>
<p>Not made (a budget of ${c.budget} calls): ${escapeHtml(c.reason)}</p>
`;
  const rows = c.rows
    .map((s) => {
      const effect =
        s.effect === null
          ? 'not measured'
          : `${signedPoints(s.effect)} points [${signedPoints(s.low!)}, ${signedPoints(s.high!)}]`;
      const perCent = s.liftPerCent === null ? '—' : `${signedPoints(s.liftPerCent)} points`;
      return `<tr><td>${escapeHtml(s.title)}</td><td>${s.startLine}–${s.endLine}</td><td>${effect}</td><td>${escapeHtml(CREDIT_VERDICT_TEXT[s.verdict])}</td><td>${Math.round(s.tokens)}</td><td>${usd(s.costUsd)}</td><td>${perCent}</td></tr>`;
    })
    .join('');
  const lift = c.liftPerCent === null ? '' : `; its sections add ${signedPoints(c.liftPerCent)} points per added cent`;
  const drop = c.droppable.length
    ? `<p>Worth offering to drop (harmful, or no evidence of help): ${escapeHtml(c.droppable.join(', '))} — as a candidate the gate judges (<code>skillwright credit --drop</code>, or the Skill screen), never silently.</p>`
    : '';
  return `<h2>Section credit of the best skill</h2>
<p>The skill costs <strong>${Math.round(c.skillTokens)} prompt tokens per task</strong> (${usd(c.skillCostUsd)}). With every section masked it scores ${(c.base * 100).toFixed(1)}%${lift}.</p>
<table><thead><tr><th>Section</th><th>Lines</th><th>Effect on pass^1</th><th>Verdict</th><th>Tokens per task</th><th>Cost per task</th><th>Lift per added cent</th></tr></thead><tbody>${rows}</tbody></table>
${drop}<p class="meta">${c.masks} masks (random halves of the sections kept, each with its complement) on ${c.items} validation items: ${c.calls} calls of a budget of ${c.budget}${c.errors ? `, ${c.errors} errored rollouts not scored` : ''}${c.skillCostUsd === null ? '' : `, cost $${c.costUsd.toFixed(4)}`}. Effects with ${Math.round(c.level * 100)}% intervals over items; the text above the first section is always kept.</p>
`;
}
