// Skill packages (issue #11): SKILL.md (Agent Skills frontmatter) and AGENTS.md in and out.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeBody, formatSkillFile, parseSkillFile, skillFileName, skillName } from '../../../src/core/skill/skill-file';

const SKILL_MD = `---
name: pdf-forms
description: "Fill PDF forms: read fields, then write values."
license: MIT
---

# PDF forms

- Read every field before writing.
`;

describe('SKILL.md import', () => {
  it('sets the frontmatter aside and trains only the body', () => {
    const p = parseSkillFile(SKILL_MD);
    expect(p.hasFrontmatter).toBe(true);
    expect(p.meta).toEqual({ name: 'pdf-forms', description: 'Fill PDF forms: read fields, then write values.', license: 'MIT' });
    expect(p.body).toBe('# PDF forms\n\n- Read every field before writing.\n');
  });

  it('reads CRLF files, a byte-order mark, single quotes and folded descriptions', () => {
    const p = parseSkillFile("\ufeff---\r\nname: 'a-b'\r\ndescription: >\r\n  Two lines\r\n  folded.\r\n---\r\nBody\r\n");
    expect(p.meta).toEqual({ name: 'a-b', description: 'Two lines folded.' });
    expect(p.body).toBe('Body\n');
  });

  it('a file without frontmatter is all body', () => {
    expect(parseSkillFile('# Skill\n---\nnot frontmatter\n')).toEqual({ body: '# Skill\n---\nnot frontmatter\n', meta: {}, hasFrontmatter: false });
  });
});

describe('SKILL.md and AGENTS.md export', () => {
  it('puts valid Agent Skills frontmatter in front of the trained body', () => {
    const out = formatSkillFile('# PDF forms\n\n- Read every field first.', 'skill_md', { name: 'PDF Forms!', description: 'Fill forms: carefully.' });
    expect(out).toBe('---\nname: pdf-forms\ndescription: "Fill forms: carefully."\n---\n\n# PDF forms\n\n- Read every field first.\n');
    expect(skillFileName('skill_md', 'x')).toBe('SKILL.md');
  });

  it('derives a description from the body when none is given', () => {
    expect(describeBody('# Specimen codes\n\nAnswer with the code.')).toBe('Specimen codes');
    expect(formatSkillFile('<!-- note -->\n- Be brief.', 'skill_md', { name: 'x' })).toContain('description: "Be brief."');
  });

  it('AGENTS.md and plain markdown keep the body; AGENTS.md gets a title when it has none', () => {
    expect(formatSkillFile('- Be brief.', 'agents_md')).toBe('# AGENTS.md\n\n- Be brief.\n');
    expect(formatSkillFile('# Rules\n- Be brief.\n\n', 'agents_md')).toBe('# Rules\n- Be brief.\n');
    expect(formatSkillFile('# Rules', 'markdown')).toBe('# Rules\n');
    expect(skillFileName('agents_md', 'x')).toBe('AGENTS.md');
    expect(skillFileName('markdown', 'run-1')).toBe('run-1-best-skill.md');
  });

  it('round-trips: what is exported as SKILL.md imports back to the same body and metadata (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '"', "'", '#', '-', '\n', 'é', '\\'), maxLength: 60 });
    fc.assert(
      fc.property(text, text, text, (body, name, description) => {
        const out = formatSkillFile(body, 'skill_md', { name, description });
        const p = parseSkillFile(out);
        const wantDescription = (description.trim() || describeBody(body)).replace(/\s+/g, ' ');
        return p.body === body.trimEnd() + '\n' && p.meta.name === skillName(name || 'skill') && p.meta.description === wantDescription;
      }),
    );
  });

  it('names are always valid Agent Skills names (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(skillName(s)) && skillName(s).length <= 64));
  });
});
