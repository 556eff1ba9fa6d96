/**
 * The run's comparator (issue #41 item 4): one question — is the candidate better than the
 * reference on these items? — answered by the comparison the run chose once (`ctx.comparator`,
 * core/verdict/comparator.ts): the mean of settled answers (verdict.ts) or the posterior over the
 * target's noise (weigh.ts). A caller says how each would ask; the run's own one is asked.
 */
import type { EngineContext } from './context';
import { compareSkills, type CompareOptions, type Comparison, type SkillPair } from './verdict';
import { weighSkills, type Weighed, type WeighOptions } from './weigh';

export interface ComparisonAsk extends SkillPair {
  /** How the mean comparison asks: its values, when it may stop early, what it gathers. */
  mean: Omit<CompareOptions, keyof SkillPair>;
  /** How the posterior asks: when it is sure, its waves, what it settles. */
  posterior: Omit<WeighOptions, keyof SkillPair>;
}

/** The candidate against the reference, by the run's comparator; a posterior verdict carries its posterior. */
export function compare(ctx: EngineContext, ask: ComparisonAsk): Promise<Comparison | Weighed> {
  const { mean, posterior, ...pair } = ask;
  return ctx.comparator === 'posterior'
    ? weighSkills(ctx, { ...pair, ...posterior })
    : compareSkills(ctx, { ...pair, ...mean });
}
