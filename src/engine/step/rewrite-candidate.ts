/**
 * Stages 4–5 of the whole-skill update modes (algorithm doc §3.5). Rewrite mode ranks the merged
 * revise suggestions down to the step's budget and makes one rewrite call; full-rewrite mode
 * takes the first merged whole skill (no ranking). Either way the written skill gets the current
 * protected blocks back, and the candidate then meets the same train check and gate as a patch.
 * Nothing usable written ⇒ null: the step is `skip_no_rewrite`, no gate is run.
 */
import type { JsonObject } from '../../core/basics/json-extract';
import {
  describeSuggestion,
  finishRewrittenSkill,
  normaliseSkillCandidate,
  normaliseSuggestion,
  type ReviseSuggestion,
} from '../../core/skill/update-modes';
import type { Proposals } from './aggregate';
import type { Candidate } from './candidate';
import type { EngineContext } from '../context';
import { checkArtifact, checkOnTrain, type TrainCheck } from './credit-check';
import { callOptimizer, checkErrorRate } from '../optimizer-call';
import { okRows } from '../rollout';
import { rankAndSelect, type Ranking } from './rank-edits';
import { putStepArtifact, type RewriteArtifact } from '../artifacts';
import type { RolloutRow } from '../types';
import type { NoisePolicy } from '../../core/verdict/noise';

const SUGGESTION_RANKING: Ranking<ReviseSuggestion> = { prompt: 'rank_suggestions', describe: describeSuggestion };

export interface RewriteInput {
  key: string;
  current: string;
  merged: Proposals;
  /** The step's budget of suggestions (rewrite mode; full-rewrite mode ranks nothing). */
  budget: number;
  metaText: string;
  bufferText: string;
  rows: readonly RolloutRow[];
  policy: NoisePolicy;
}

/** The rewritten candidate, or null when no usable skill was written (skip_no_rewrite). */
export async function buildRewriteCandidate(ctx: EngineContext, a: RewriteInput): Promise<Candidate | null> {
  const mode = ctx.config.updateMode === 'full_rewrite' ? 'full_rewrite' : 'rewrite';
  const written = mode === 'rewrite' ? await rewriteFromSuggestions(ctx, a) : pickFullRewrite(a.merged);
  const skill = written.text === null ? null : finishRewrittenSkill(a.current, written.text);
  const artifact: RewriteArtifact = {
    mode,
    merged:
      mode === 'rewrite'
        ? a.merged.items
        : a.merged.items.map((c) => ({ title: c.title ?? '', change_summary: c.change_summary ?? [] })),
    selected: written.selected,
    reasoning: written.reasoning,
    changeSummary: written.changeSummary,
    skill,
  };
  await putStepArtifact(ctx, a.key, 'rewrite', artifact);
  if (skill === null) return null;
  let check: TrainCheck | null = null;
  const base = okRows(a.rows);
  if (ctx.config.trainCheck && skill !== a.current && base.length) {
    check = await checkOnTrain(ctx, `${a.key}/check`, base, a.current, skill, { policy: a.policy });
    await putStepArtifact(ctx, a.key, 'check', checkArtifact(check));
  }
  return {
    kind: 'rewrite',
    reasoning: written.reasoning,
    changeSummary: written.changeSummary,
    skill,
    check,
    units: check?.units ?? {},
  };
}

interface Written {
  text: string | null;
  selected: JsonObject[];
  reasoning: string;
  changeSummary: string[];
}

/** Rewrite mode: rank the suggestions to the budget, then one call writes the whole skill. */
async function rewriteFromSuggestions(ctx: EngineContext, a: RewriteInput): Promise<Written> {
  const suggestions = a.merged.items.map(normaliseSuggestion).filter((s) => s !== null);
  const sel = await rankAndSelect(
    ctx,
    a.key,
    { reasoning: a.merged.reasoning, edits: suggestions },
    a.budget,
    a.current,
    a.metaText,
    SUGGESTION_RANKING,
  );
  const selected = sel.ranked.edits as unknown as JsonObject[];
  if (!selected.length) return { text: null, selected, reasoning: 'no suggestions selected', changeSummary: [] };
  const r = await callOptimizer(ctx, `${a.key}/rewrite`, 'rewrite_skill', {
    skill: a.current,
    count: String(selected.length),
    suggestions: JSON.stringify(selected, null, 2),
    buffer: a.bufferText,
  });
  checkErrorRate(ctx, 'rewrite', [r]);
  const text = typeof r.json?.new_skill === 'string' ? r.json.new_skill : null;
  const summary = Array.isArray(r.json?.change_summary) ? r.json.change_summary.map(String).filter(Boolean) : [];
  return { text, selected, reasoning: String(r.json?.reasoning ?? ''), changeSummary: summary };
}

/** Full-rewrite mode: the first merged skill with a non-empty text is the candidate. */
function pickFullRewrite(merged: Proposals): Written {
  const first = merged.items.map(normaliseSkillCandidate).find((c) => c !== null) ?? null;
  return first
    ? {
        text: first.new_skill,
        selected: [],
        reasoning: merged.reasoning,
        changeSummary: first.change_summary.length ? first.change_summary : [first.title].filter(Boolean),
      }
    : { text: null, selected: [], reasoning: merged.reasoning, changeSummary: [] };
}
