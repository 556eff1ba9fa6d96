// Section credit beside the sections (issue #43 item 4): a bar in the glyph margin — the edit-blame
// gutter's neighbour — over each section's lines, coloured by its verdict, and its effect written
// after its heading; the hover says the interval, the cost and what the verdict means.
import type { CreditReport, SectionCredit } from '../../worker/api-types';
import { plainMarkdown } from './blame-marks';
import { signedPoints as points, CREDIT_VERDICT_TEXT as VERDICT_TEXT } from '../../core/report/section-credit-read';

export interface CreditMark {
  startLine: number;
  endLine: number;
  className: string;
  /** Shown after the heading line. */
  label: string;
  /** Markdown for the hover. */
  hover: string;
}

/** Pass^1 points, signed, and what each verdict means: the words the report and the runner use too. */
export { signedPoints as points, CREDIT_VERDICT_TEXT as VERDICT_TEXT } from '../../core/report/section-credit-read';

/** The effect and its interval, as the page and the hover write it. */
export function effectText(s: Pick<SectionCredit, 'effect' | 'low' | 'high'>): string {
  if (s.effect === null) return 'not measured';
  return `${points(s.effect)} points [${points(s.low!)}, ${points(s.high!)}]`;
}

export function creditMarks(r: CreditReport): CreditMark[] {
  return r.sections.map((s) => ({
    startLine: s.startLine,
    endLine: s.endLine,
    className: `credit-bar credit-${s.verdict}`,
    label: `  ${s.effect === null ? 'kept' : effectText(s)} · ${Math.round(s.tokens)} tokens/task`,
    hover: [
      `**${plainMarkdown(s.title)}** — ${effectText(s)} on pass^1`,
      plainMarkdown(VERDICT_TEXT[s.verdict]),
      `${Math.round(s.tokens)} prompt tokens per task${s.costUsd === null ? '' : ` (${plainMarkdown(`$${s.costUsd.toFixed(6)}`)})`}`,
    ].join('\n\n'),
  }));
}
