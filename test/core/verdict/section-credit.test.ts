// Which section earns its tokens (issue #43 item 4), on the planted world with the rule world's
// simulated target called directly: effects inside their intervals, verdicts, costs, the drop offer.
import { describe, expect, it } from 'vitest';
import { creditReport, dropCandidate, type MaskedRollout } from '../../../src/core/verdict/section-credit';
import { maskDesign } from '../../../src/core/verdict/section-masks';
import { skillOutline, withoutSections } from '../../../src/core/skill/skill-sections';
import { simulatedTargetAnswer } from '../../../src/core/simulators/demo-world';
import { CREDIT_SKILL, creditWorldItems, plantedEffects } from '../../support/credit-world';

const val = creditWorldItems(24).filter((i) => i.split === 'val');

function rollouts(skill: string, design: boolean[][]): MaskedRollout[] {
  const outline = skillOutline(skill);
  return design.flatMap((kept, mask) => {
    const text = withoutSections(skill, outline, new Set(kept.flatMap((k, j) => (k ? [] : [j]))));
    return val.map((it) => ({
      mask,
      itemId: it.id,
      pass: simulatedTargetAnswer(text, it.question) === it.answers[0] ? 1 : 0,
      promptTokens: Math.ceil((text.length + it.question.length) / 4),
    }));
  });
}

describe('section credit report', () => {
  const planted = plantedEffects(CREDIT_SKILL, val);

  it('recovers the helpful, harmful and neutral sections inside their intervals, for any seed', () => {
    expect(planted).toEqual([0.1875, -0.4375, 0]);
    for (let seed = 1; seed <= 12; seed++) {
      const design = maskDesign(3, 10, seed);
      const r = creditReport(CREDIT_SKILL, {
        design,
        columns: [0, 1, 2],
        rollouts: rollouts(CREDIT_SKILL, design),
        seed,
      })!;
      r.sections.forEach((s, j) => {
        expect(s.low!, `seed ${seed} ${s.title}`).toBeLessThanOrEqual(planted[j] + 1e-9);
        expect(s.high!, `seed ${seed} ${s.title}`).toBeGreaterThanOrEqual(planted[j] - 1e-9);
      });
      expect(r.sections.map((s) => s.verdict)).toEqual(['helps', 'harms', 'nil']);
      expect(r.droppable).toEqual([1, 2]);
    }
  });

  it('prices each section by its measured tokens per task, and the lift per added cent', () => {
    const design = maskDesign(3, 12, 5);
    const r = creditReport(CREDIT_SKILL, {
      design,
      columns: [0, 1, 2],
      rollouts: rollouts(CREDIT_SKILL, design),
      price: { input: 2 },
      seed: 5,
    })!;
    const outline = skillOutline(CREDIT_SKILL);
    r.sections.forEach((s, j) =>
      expect(Math.abs(s.tokens - (outline.sections[j].text.length + 1) / 4)).toBeLessThan(1.5),
    );
    expect(r.skillTokens).toBeGreaterThan(r.sections.reduce((n, s) => n + s.tokens, 0));
    expect(r.skillCostUsd).toBeCloseTo((r.skillTokens * 2) / 1e6, 12);
    const amber = r.sections[0];
    expect(amber.liftPerCent).toBeCloseTo(amber.effect! / (((amber.tokens * 2) / 1e6) * 100), 9);
    const sum = r.sections.reduce((n, s) => n + s.effect!, 0);
    const tokens = r.sections.reduce((n, s) => n + s.tokens, 0);
    expect(r.liftPerCent).toBeCloseTo(sum / (((tokens * 2) / 1e6) * 100), 9);
    expect(
      creditReport(CREDIT_SKILL, { design, columns: [0, 1, 2], rollouts: rollouts(CREDIT_SKILL, design), seed: 5 })!
        .skillCostUsd,
    ).toBeNull();
  });

  it('never scores an errored rollout, and offers the drop as a candidate text only', () => {
    const design = maskDesign(3, 10, 2);
    const rows = rollouts(CREDIT_SKILL, design).map((r, i) => (i % 7 === 0 ? { ...r, pass: null } : r));
    const r = creditReport(CREDIT_SKILL, { design, columns: [0, 1, 2], rollouts: rows, seed: 2 })!;
    expect(r.items + r.leftOut).toBe(24);
    const candidate = dropCandidate(CREDIT_SKILL, r.droppable);
    expect(candidate).not.toContain('When unsure');
    expect(candidate).not.toContain('## Tone');
    expect(candidate).toContain('## Amber specimens');
  });
});
