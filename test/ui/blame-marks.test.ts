// Blame hovers render model and dataset text as plain text (issue #20 item 13).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anyText } from '../support/arbitraries';
import { blameMarks, plainMarkdown, rangesByFile } from '../../src/ui/skill/blame-marks';
import { bundlePackage } from '../../src/core/skill/skill-package';
import type { SkillBlame } from '../../src/worker/api-types';

const unescape = (md: string) => md.replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('blame hovers', () => {
  it('property: escaping loses no character, and leaves no punctuation a markdown renderer acts on', () => {
    fc.assert(
      fc.property(anyText(), (text) => {
        const md = plainMarkdown(text);
        expect(unescape(md)).toBe(text);
        expect(md).not.toMatch(/(^|[^\\])[[\]()<>`*_:]/);
      }),
      { numRuns: 1000 }, // about 20 draws of each ASCII punctuation mark
    );
  });

  it('a link, an autolink or HTML in an analyst reply or an edit does not become clickable markup', () => {
    const evil = 'See [docs](https://evil.example) or https://evil.example or www.evil.example <a href="x">x</a>';
    const blame: SkillBlame = {
      lines: [
        {
          line: 1,
          key: 'step_0001',
          edit: { op: 'append', target: '', content: evil, source: 'failure', support: 2 },
          analysts: [evil],
        },
      ],
      ranges: [{ start: 1, end: 1, key: 'step_0001' }],
      sources: {
        step_0001: {
          key: 'step_0001',
          kind: 'step',
          label: 'Step 1',
          action: 'accept_new_best',
          reasoning: evil,
          fixedItems: ['[x](https://e.x)'],
        },
      },
    } as unknown as SkillBlame;
    const [mark] = blameMarks(blame);
    expect(mark.hover).not.toContain('](');
    expect(mark.hover).not.toContain('://');
    expect(mark.hover).not.toContain('www.');
    expect(mark.hover).not.toMatch(/(^|[^\\])<a/);
    expect(mark.hover).toContain('**Step 1 · accept new best**');
    expect(unescape(mark.hover)).toContain(evil);
  });
});

describe('blame ranges by file (issue #23)', () => {
  it('names a package line by its file and its line there, and cuts a range at the file markers', () => {
    const skill = bundlePackage('# Skill\n\nRule one.\n', [
      { path: 'references/codes.md', text: '# Codes\n- AMB1\n- BAS2\n' },
    ]);
    const lines = skill.split('\n');
    const open = lines.indexOf('<!-- FILE: references/codes.md -->');
    // One step wrote SKILL.md's last line and the whole reference file (markers included).
    const ranges = [
      { start: 1, end: 2, key: 'initial' },
      { start: 3, end: open + 5, key: 'step_0001' },
    ];
    expect(rangesByFile(ranges, skill).map((r) => [r.key, r.label])).toEqual([
      ['initial', 'SKILL.md, lines 1–2'],
      ['step_0001', `SKILL.md, lines 3–${open}`],
      ['step_0001', 'references/codes.md, lines 1–3'],
    ]);
  });

  it('keeps plain line numbers for a one-file skill', () => {
    const ranges = [
      { start: 1, end: 1, key: 'a' },
      { start: 2, end: 4, key: 'b' },
    ];
    expect(rangesByFile(ranges, 'a\nb\nc\nd\n').map((r) => r.label)).toEqual(['Line 1', 'Lines 2–4']);
  });
});
