// A skill's sections by its headings (issue #43 item 4): what credit masks, shows and may drop.
import { describe, expect, it } from 'vitest';
import { skillOutline, withoutSections } from '../../../src/core/skill/skill-sections';
import { APPENDIX_END, APPENDIX_START } from '../../../src/core/skill/protected-regions';

const SKILL = [
  '# Specimen codes',
  '',
  'Answer with the code.',
  '',
  '## Amber',
  '- amber rule',
  '### Detail',
  'amber detail',
  '',
  '## Shortcuts',
  '```',
  '## not a heading',
  '```',
  '- none rule',
  '',
  '## Tone',
  'Be polite.',
  '',
].join('\n');

describe('skill sections', () => {
  it('cuts at the shallowest level used twice, keeps the title in the preamble and fenced headings as text', () => {
    const o = skillOutline(SKILL);
    expect(o.preamble).toBe('# Specimen codes\n\nAnswer with the code.\n');
    expect(o.sections.map((s) => [s.title, s.startLine, s.endLine])).toEqual([
      ['Amber', 5, 9],
      ['Shortcuts', 10, 15],
      ['Tone', 16, 17],
    ]);
    expect(o.sections[0].text).toContain('amber detail');
    expect(o.sections.every((s) => !s.protected)).toBe(true);
  });

  it('takes masked sections out whole, leaving the rest as written', () => {
    const o = skillOutline(SKILL);
    const masked = withoutSections(SKILL, o, new Set([1]));
    expect(masked).not.toContain('none rule');
    expect(masked).not.toContain('## Shortcuts');
    expect(masked).toContain('- amber rule\n### Detail\namber detail\n\n## Tone');
    expect(withoutSections(SKILL, o, new Set())).toBe(SKILL);
  });

  it('a skill without headings is all preamble; a lone heading is one section', () => {
    expect(skillOutline('Just do it.\n')).toEqual({ preamble: 'Just do it.\n', sections: [] });
    const one = skillOutline('Intro\n## Only\nbody\n');
    expect(one.sections.map((s) => s.title)).toEqual(['Only']);
    expect(one.preamble).toBe('Intro');
  });

  it('never masks a section holding a protected region, and keeps file markers in a masked one', () => {
    const skill = `# S\n## A\nrule a\n${APPENDIX_START}\n- note\n${APPENDIX_END}\n## B\n<!-- FILE: references/b.md -->\nrule b\n`;
    const o = skillOutline(skill);
    expect(o.sections.map((s) => s.protected)).toEqual([true, false]);
    const masked = withoutSections(skill, o, new Set([0, 1]));
    expect(masked).toContain('- note');
    expect(masked).toContain('<!-- FILE: references/b.md -->');
    expect(masked).not.toContain('rule b');
  });
});
