/**
 * Which section earns its tokens (issue #43 item 4): each section's effect on pass^1 with its
 * interval, what it costs per task (its prompt tokens, measured the same way as the effect: a fit
 * of each rollout's prompt tokens on the mask), and the lift per added cent; the skill's own cost
 * per task; and the sections worth offering to drop — harmful, or no evidence of help — which are
 * offered as a candidate for the gate, never dropped here.
 */
import { isGain } from './epsilon';
import { skillOutline, withoutSections, type SkillSection } from '../skill/skill-sections';
import type { MaskDesign } from './section-masks';
import { sectionEffects, type MaskedScore } from './section-effects';

/** helps: the whole interval above zero; harms: below; nil: it holds zero; kept: protected, never masked. */
export type SectionVerdict = 'helps' | 'harms' | 'nil' | 'kept';

export interface SectionCredit extends Omit<SkillSection, 'text'> {
  /** Pass^1 points (as a share) keeping the section adds; null when it was not masked (protected). */
  effect: number | null;
  low: number | null;
  high: number | null;
  verdict: SectionVerdict;
  /** Prompt tokens per task the section adds (every call of an agent's rollout carries it). */
  tokens: number;
  /** Its input cost per task in USD; null without a target price. */
  costUsd: number | null;
  /** Effect per cent of cost per task (a share per cent); null without a price or a cost. */
  liftPerCent: number | null;
}

export interface CreditReport {
  sections: SectionCredit[];
  /** Pass^1 fitted with every maskable section masked (the preamble and protected parts alone). */
  base: number;
  /** The skill's own prompt tokens per task, and their cost (null without a price). */
  skillTokens: number;
  skillCostUsd: number | null;
  /** What the masked sections add together, per cent they add to each task. */
  liftPerCent: number | null;
  /** Sections harmful or without evidence of help: what "drop" offers, for the gate to judge. */
  droppable: number[];
  items: number;
  leftOut: number;
  masks: number;
  level: number;
}

/**
 * One masked rollout: its pass (null when it errored: never a score) and its prompt tokens (null when
 * unknown — an errored call's are — and then left out of the token fit, never counted as zero).
 */
export interface MaskedRollout {
  mask: number;
  itemId: string;
  pass: number | null;
  promptTokens: number | null;
}

/** Beyond the one tolerance: a fit's rounding (−1e-17 for an exact zero) is no verdict. */
const verdictOf = (low: number, high: number): SectionVerdict =>
  isGain(low) ? 'helps' : isGain(-high) ? 'harms' : 'nil';

/**
 * The report from the masked rollouts. `columns[c]` is the section index design column c masks;
 * null when fewer than two items could be fitted.
 */
export function creditReport(
  skill: string,
  a: {
    design: MaskDesign;
    columns: readonly number[];
    rollouts: readonly MaskedRollout[];
    /** The target's input price, USD per million tokens (config/pricing.ts `Price`). */
    price?: { input: number };
    seed: number;
    level?: number;
  },
): CreditReport | null {
  const level = a.level ?? 0.95;
  const passes: MaskedScore[] = a.rollouts.flatMap((r) =>
    r.pass === null ? [] : [{ mask: r.mask, itemId: r.itemId, value: r.pass }],
  );
  const fit = sectionEffects(a.design, passes, { seed: a.seed, level });
  if (!fit) return null;
  const tokenFit = sectionEffects(
    a.design,
    a.rollouts.flatMap((r) =>
      r.promptTokens === null ? [] : [{ mask: r.mask, itemId: r.itemId, value: r.promptTokens }],
    ),
    { seed: a.seed, resamples: 1 },
  );
  const outline = skillOutline(skill);
  const measured = new Map(a.columns.map((section, c) => [section, c]));
  const tokensOf = (c: number) => Math.max(0, tokenFit?.effects[c].effect ?? 0);
  // Parts never masked are priced at the rate the masked ones were measured at (tokens per character).
  const maskedChars = a.columns.reduce((n, s) => n + outline.sections[s].text.length, 0);
  const maskedTokens = a.columns.reduce((n, _, c) => n + tokensOf(c), 0);
  const rate = maskedChars > 0 && maskedTokens > 0 ? maskedTokens / maskedChars : 1 / 4;
  const usd = (tokens: number) => (a.price ? (tokens * a.price.input) / 1e6 : null);
  const perCent = (effect: number, tokens: number) => {
    const cost = usd(tokens);
    return cost && cost > 0 ? effect / (cost * 100) : null;
  };
  const sections = outline.sections.map(({ text, ...s }): SectionCredit => {
    const c = measured.get(s.index);
    if (c === undefined) {
      const tokens = text.length * rate;
      return {
        ...s,
        effect: null,
        low: null,
        high: null,
        verdict: 'kept',
        tokens,
        costUsd: usd(tokens),
        liftPerCent: null,
      };
    }
    const e = fit.effects[c];
    const tokens = tokensOf(c);
    return {
      ...s,
      effect: e.effect,
      low: e.low,
      high: e.high,
      verdict: verdictOf(e.low, e.high),
      tokens,
      costUsd: usd(tokens),
      liftPerCent: perCent(e.effect, tokens),
    };
  });
  const skillTokens = outline.preamble.length * rate + sections.reduce((n, s) => n + s.tokens, 0);
  const lift = fit.effects.reduce((n, e) => n + e.effect, 0);
  return {
    sections,
    base: fit.base,
    skillTokens,
    skillCostUsd: usd(skillTokens),
    liftPerCent: perCent(lift, maskedTokens),
    droppable: sections.filter((s) => s.verdict === 'harms' || s.verdict === 'nil').map((s) => s.index),
    items: fit.items,
    leftOut: fit.leftOut,
    masks: a.design.length,
    level,
  };
}

/** The candidate a drop offers: the skill without the chosen sections (protected ones always stay). */
export function dropCandidate(skill: string, sections: readonly number[]): string {
  return withoutSections(skill, skillOutline(skill), new Set(sections));
}
