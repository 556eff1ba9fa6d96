/**
 * Stage 4, select — "gradient clipping" (algorithm doc §3.3): when the merged patch has more
 * edits than this step's budget, the optimizer ranks them and the top L are kept. Budget 0
 * keeps nothing (the reference keeps one). An unusable ranking keeps the first L (§2.10).
 */
import { editFile, type Edit, type Patch } from '../../core/skill/edits';
import type { EngineContext } from '../context';
import { callOptimizer, checkErrorRate } from '../optimizer-call';
import type { PromptName } from '../prompts';

/** How a kind of item is ranked: the prompt, and one line per item. */
export interface Ranking<T> {
  prompt: PromptName;
  describe: (item: T, i: number) => string;
}

export interface SelectResult<T = Edit> {
  ranked: { reasoning: string; edits: T[]; ranking_details?: Patch['ranking_details'] };
  called: boolean;
  fallback: boolean;
}

/** One line per edit, as the ranking and step-size prompts show them. */
export function describeEdit(e: Edit, i: number): string {
  const q = (s: unknown) => JSON.stringify(String(s ?? ''));
  // "carried": kept from a rejected candidate that improved on train; its partners may be in the pool.
  const file = editFile(e) ? `  file=${editFile(e)}` : '';
  return `[${i}] op=${e.op}${file}  target=${q(e.target)}  content=${q(e.content)}  support=${e.support_count ?? 1}${e.carried ? '  carried' : ''}`;
}

/** Keep integer indices in range, without duplicates, at most `budget` of them. */
export function pickIndices(raw: unknown, n: number, budget: number): number[] {
  if (!Array.isArray(raw)) return [];
  const out: number[] = [];
  for (const v of raw) {
    if (out.length >= budget) break;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < n && !out.includes(v)) out.push(v);
  }
  return out;
}

const EDIT_RANKING: Ranking<Edit> = { prompt: 'rank_edits', describe: describeEdit };

export async function rankAndSelect<T = Edit>(
  ctx: EngineContext,
  keyPrefix: string,
  merged: { reasoning: string; edits: T[] },
  budget: number,
  skill: string,
  metaText: string,
  how: Ranking<T> = EDIT_RANKING as unknown as Ranking<T>,
): Promise<SelectResult<T>> {
  if (budget <= 0)
    return {
      ranked: { reasoning: `${merged.reasoning} [budget 0: no edits]`, edits: [] },
      called: false,
      fallback: false,
    };
  if (merged.edits.length <= budget) return { ranked: merged, called: false, fallback: false };
  const r = await callOptimizer(ctx, `${keyPrefix}/${how.prompt}`, how.prompt, {
    meta: metaText,
    skill,
    count: String(merged.edits.length),
    budget: String(budget),
    pool: merged.edits.map(how.describe).join('\n'),
  });
  checkErrorRate(ctx, 'ranking', [r]);
  const indices = pickIndices(r.json?.selected_indices, merged.edits.length, budget);
  if (!indices.length) {
    return {
      ranked: {
        reasoning: `${merged.reasoning} [fallback: first ${budget} edits]`,
        edits: merged.edits.slice(0, budget),
      },
      called: true,
      fallback: true,
    };
  }
  return {
    ranked: {
      reasoning: `${merged.reasoning} [optimizer-ranked: selected ${indices.length}/${merged.edits.length} edits]`,
      edits: indices.map((i) => merged.edits[i]),
      ranking_details: { reasoning: String(r.json?.reasoning ?? ''), selected_indices: indices },
    },
    called: true,
    fallback: false,
  };
}
