// Section credit of the best skill in the HTML report (issue #43 item 4): each section's effect with
// its interval and verdict, its tokens, cost per task and lift per added cent, the skill's own cost per
// task, the sections worth dropping; a credit not made says why; a crafted bundle's credit is escaped
// or left out, never rendered as markup.
import { describe, expect, it } from 'vitest';
import { creditSection } from '../../../src/core/report/credit-html';
import { readSectionCredit } from '../../../src/core/report/section-credit-read';

const section = (title: string, verdict: string, effect: number | null, extra = {}) => ({
  index: 0,
  title,
  startLine: 8,
  endLine: 11,
  protected: verdict === 'kept',
  effect,
  low: effect === null ? null : effect - 0.05,
  high: effect === null ? null : effect + 0.05,
  verdict,
  tokens: 12.4,
  costUsd: 0.0000124,
  liftPerCent: effect === null ? null : effect * 10,
  ...extra,
});

const CREDIT = {
  ok: true,
  budget: 300,
  costUsd: 0.0123,
  masks: 12,
  calls: 248,
  rollouts: 288,
  errors: 0,
  plan: { masks: 12, items: 24, rollouts: 288 },
  report: {
    sections: [
      section('Amber specimens', 'helps', 0.1875),
      section('When unsure', 'harms', -0.4375),
      section('Tone', 'nil', 0),
    ],
    base: 0.5,
    skillTokens: 81.6,
    skillCostUsd: 0.0000816,
    liftPerCent: 12.5,
    droppable: [1, 2],
    items: 24,
    leftOut: 0,
    masks: 12,
    level: 0.95,
  },
};

describe('section credit in the report', () => {
  it('shows each section’s effect, verdict, cost per task and lift per added cent, and the skill’s own cost', () => {
    const html = creditSection(CREDIT);
    expect(html).toContain('<h2>Section credit of the best skill</h2>');
    expect(html).toContain('<strong>82 prompt tokens per task</strong> ($0.000082)');
    expect(html).toContain('its sections add +1250.0 points per added cent');
    expect(html).toMatch(
      /<td>Amber specimens<\/td><td>8–11<\/td><td>\+18\.8 points \[\+13\.8, \+23\.8\]<\/td><td>helps: its whole interval is above zero<\/td><td>12<\/td><td>\$0\.000012<\/td><td>\+187\.5 points<\/td>/,
    );
    expect(html).toContain('<td>−43.8 points [−48.8, −38.8]</td><td>harms: its whole interval is below zero</td>');
    expect(html).toContain('no evidence it helps');
    expect(html).toContain('Worth offering to drop (harmful, or no evidence of help): When unsure, Tone');
    expect(html).toContain(
      '12 masks (random halves of the sections kept, each with its complement) on 24 validation items: 248 calls of a budget of 300',
    );
  });

  it('says why a credit was not made', () => {
    const html = creditSection({
      ok: false,
      budget: 10,
      reason: 'A budget of 10 calls is too small <for> 3 section(s)',
    });
    expect(html).toContain(
      'Not made (a budget of 10 calls): A budget of 10 calls is too small &lt;for&gt; 3 section(s)',
    );
  });

  it('is left out for a run without one, and escapes or drops what a crafted bundle put there', () => {
    expect(creditSection(undefined)).toBe('');
    const crafted = structuredClone(CREDIT) as unknown as { report: { sections: Record<string, unknown>[] } };
    crafted.report.sections[0].title = '<img src=x onerror=alert(1)>';
    expect(creditSection(crafted)).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(creditSection(crafted)).not.toContain('<img');
    crafted.report.sections[1].effect = '<b>big</b>';
    expect(readSectionCredit(crafted)).toBeNull();
    expect(creditSection(crafted)).toBe('');
    expect(creditSection({ ...CREDIT, budget: '300' })).toBe('');
  });
});
