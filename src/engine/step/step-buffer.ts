/**
 * The rejected-edit buffer (algorithm doc §2.7): what earlier steps of this epoch tried, which
 * failures remain, and which edits the gate rejected — shown to the analysts so they do not
 * repeat themselves. Analyst summaries and fail-reason groups are kept side by side rather
 * than paired by position (the reference's pairing is arbitrary).
 */
import { renderTemplate } from '../../core/config/templates';
import type { Edit } from '../../core/skill/edits';
import type { BufferEntry, RolloutRow } from '../types';
import type { PromptSet } from '../prompts';
import { isPass } from '../../core/verdict/credit';
import { answerPartOf } from '../trajectory';

/**
 * Group failures by the text of their fail reason before the first colon; an agent's by its
 * first check's kind ("never called lookup", "ran out of turns"), or, when the analysts see
 * final answers only, by what the final answer shows.
 */
export function failurePatterns(rows: readonly RolloutRow[], trajectories = true): BufferEntry['failure_patterns'] {
  const groups = new Map<string, string[]>();
  for (const r of rows) {
    if (r.status !== 'ok' || isPass(r.hard)) continue;
    const reason = r.failReason ?? 'failed';
    const i = reason.indexOf(':');
    const key = r.trajectory ? agentPattern(reason, trajectories) : i >= 0 ? reason.slice(0, i) : reason;
    groups.set(key, [...(groups.get(key) ?? []), r.itemId]);
  }
  return [...groups.entries()].map(([pattern, ids]) => ({ pattern, count: ids.length, task_ids: ids }));
}

function agentPattern(reason: string, trajectories: boolean): string {
  const first = (trajectories ? reason : answerPartOf(reason)).split('; ')[0].replace(/^turn \d+: /, '');
  return first.split(/[:({]| with /)[0].trim();
}

export function makeBufferEntry(args: {
  step: number;
  action: string;
  rows: readonly RolloutRow[];
  analystSummaries: string[];
  scoreBefore: number;
  scoreAfter: number | null;
  edits: readonly Edit[];
  /** A rejected whole-skill rewrite: its change summary stands for the edits. */
  rewrite?: readonly string[];
  /** The analysts read agents' whole trajectories (false: final answers only). */
  trajectories?: boolean;
}): BufferEntry {
  const ok = args.rows.filter((r) => r.status === 'ok');
  const entry: BufferEntry = {
    step: args.step,
    action: args.action,
    n_total: ok.length,
    n_fail: ok.filter((r) => !isPass(r.hard)).length,
    failure_patterns: failurePatterns(args.rows, args.trajectories ?? true),
    analyst_summaries: args.analystSummaries,
  };
  if (args.action.includes('reject')) {
    entry.score_before = args.scoreBefore;
    entry.score_after = args.scoreAfter ?? undefined;
    entry.rejected_edits = args.rewrite
      ? args.rewrite.map((line) => ({ op: 'rewrite', content: line, target: '' }))
      : args.edits.map((e) => ({ op: String(e.op), content: String(e.content ?? ''), target: String(e.target ?? '') }));
  }
  return entry;
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * How much of the buffer the analysts see: the most recent steps, within a character budget.
 * An epoch of a large dataset has hundreds of steps; all of them would swamp every prompt.
 */
export const BUFFER_LIMIT = { entries: 12, chars: 24_000 };

/** Keep the entries the prompts can show (the state need not carry more). */
export function boundBuffer(entries: readonly BufferEntry[]): BufferEntry[] {
  return entries.slice(-BUFFER_LIMIT.entries);
}

/** The buffer as text for analyst prompts; '' when empty. */
export function renderBuffer(all: readonly BufferEntry[], prompts: PromptSet): string {
  if (!all.length) return '';
  const entries = boundBuffer(all);
  const blocks = entries.map((e) => {
    const lines = [`Step ${e.step} — ${e.action.toUpperCase()} (${e.n_fail}/${e.n_total} failed)`];
    for (const p of e.failure_patterns)
      lines.push(
        `- ${p.pattern} ×${p.count} (tasks: ${p.task_ids.slice(0, 10).join(', ')}${p.task_ids.length > 10 ? ', …' : ''})`,
      );
    for (const s of e.analyst_summaries) lines.push(`- analyst: ${clip(s)}`);
    if (e.rejected_edits) {
      lines.push(
        `Score before → after: ${e.score_before?.toFixed(4)} → ${e.score_after === undefined ? 'n/a' : e.score_after.toFixed(4)}. Rejected edits:`,
      );
      e.rejected_edits.forEach((r, i) =>
        lines.push(
          r.target
            ? `${i + 1}. [${r.op}] target="${clip(r.target, 120)}" → "${clip(r.content)}"`
            : `${i + 1}. [${r.op}] "${clip(r.content)}"`,
        ),
      );
    }
    return lines.join('\n');
  });
  // Oldest first out until the text fits the budget (the latest step is always kept).
  while (blocks.length > 1 && blocks.reduce((n, b) => n + b.length + 2, 0) > BUFFER_LIMIT.chars) blocks.shift();
  const omitted = all.length - blocks.length;
  const text = (
    omitted > 0 ? [`(${omitted} earlier step${omitted === 1 ? '' : 's'} of this epoch not shown)`, ...blocks] : blocks
  ).join('\n\n');
  return renderTemplate(prompts.step_buffer.user, { entries: text }).trim();
}

/** The meta-skill context block; '' when no memory is active. */
export function renderMetaBlock(meta: string, prompts: PromptSet): string {
  return meta.trim() ? renderTemplate(prompts.meta_block.user, { meta: meta.trim() }).trim() : '';
}
