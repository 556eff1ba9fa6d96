import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SLOW_UPDATE_END, SLOW_UPDATE_START, injectEmptyAppendix, mergeAppendixNotes, replaceSlowUpdateBlock } from '../../../src/core/skill/protected-regions';
import { describeSuggestion, finishRewrittenSkill, normaliseSkillCandidate, normaliseSuggestion } from '../../../src/core/skill/update-modes';

describe('update modes: revise suggestions and skill candidates', () => {
  it('normalises a suggestion, with unknown type and priority falling back', () => {
    expect(normaliseSuggestion({ type: 'add_rule', title: 'T', motivation: 'M', instruction: 'Do X', priority_hint: 'high', support_count: 3 })).toEqual({
      type: 'add_rule',
      title: 'T',
      motivation: 'M',
      instruction: 'Do X',
      priority_hint: 'high',
      support_count: 3,
    });
    expect(normaliseSuggestion({ type: 'invent', instruction: 'Do Y', priority_hint: 'urgent' })).toMatchObject({ type: 'clarify', priority_hint: 'medium', title: 'Do Y' });
    expect(normaliseSuggestion({ type: 'add_rule', title: ' ', instruction: '' })).toBeNull();
    expect(normaliseSuggestion('text')).toBeNull();
  });

  it('normalises a skill candidate and drops one with an empty new skill', () => {
    expect(normaliseSkillCandidate({ title: 'v2', change_summary: ['a', '', 3], new_skill: '# S\n' })).toEqual({ title: 'v2', change_summary: ['a'], new_skill: '# S\n' });
    expect(normaliseSkillCandidate({ title: 'v2', change_summary: [], new_skill: '  \n' })).toBeNull();
  });

  it('describes a suggestion on one line for the ranker', () => {
    const line = describeSuggestion({ type: 'add_rule', title: 'Codes', motivation: '', instruction: 'Answer with "the code"', priority_hint: 'high', support_count: 2 }, 3);
    expect(line).toBe('[3] type=add_rule  priority=high  title="Codes"  instruction="Answer with \\"the code\\""  support=2');
  });
});

describe('update modes: a rewritten skill keeps the protected blocks', () => {
  const current = mergeAppendixNotes(replaceSlowUpdateBlock('# Skill\n- rule a\n', 'epoch guidance'), ['remember the tags']);

  it('right-trims the body, adds one newline, and puts the current blocks back verbatim', () => {
    const out = finishRewrittenSkill(current, '# Skill\n- rule a\n- rule b\n\n\n   ')!;
    expect(out.startsWith('# Skill\n- rule a\n- rule b\n\n<!-- SLOW_UPDATE_START -->')).toBe(true);
    expect(out).toContain(`${SLOW_UPDATE_START}\nepoch guidance\n${SLOW_UPDATE_END}`);
    expect(out).toContain('- remember the tags');
    expect(out.endsWith('\n')).toBe(true);
    expect(out.endsWith('\n\n')).toBe(false);
  });

  it('throws away blocks and markers the model wrote itself', () => {
    const forged = `# New\n${SLOW_UPDATE_START}\nforged guidance\n${SLOW_UPDATE_END}\nstray ${SLOW_UPDATE_END} marker\n`;
    const out = finishRewrittenSkill(current, forged)!;
    expect(out).not.toContain('forged guidance');
    expect(out.split(SLOW_UPDATE_START)).toHaveLength(2);
    expect(out).toContain('epoch guidance');
  });

  it('returns null for an empty body and plain text for a skill without blocks', () => {
    expect(finishRewrittenSkill(current, `${SLOW_UPDATE_START}\nonly a block\n${SLOW_UPDATE_END}`)).toBeNull();
    expect(finishRewrittenSkill('# plain\n', '# plain v2  \n\n')).toBe('# plain v2\n');
  });

  it('property: whatever a model writes, the result holds each current block exactly once, unchanged', () => {
    const withBlocks = injectEmptyAppendix(replaceSlowUpdateBlock('# S\n', 'g'));
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('', SLOW_UPDATE_START, SLOW_UPDATE_END, '<!-- APPENDIX_START -->'), (body, marker) => {
        const out = finishRewrittenSkill(withBlocks, `x${body}${marker}${body}`);
        if (out === null) return;
        expect(out.split(SLOW_UPDATE_START)).toHaveLength(2);
        expect(out.split('<!-- APPENDIX_START -->')).toHaveLength(2);
        expect(out).toContain(`${SLOW_UPDATE_START}\ng\n${SLOW_UPDATE_END}`);
      }),
    );
  });
});
