import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alreadyStated, isPlaceholder, screenEdits } from '../../../src/core/skill/edit-screen';
import { applyEdit, applyPatch, type Edit } from '../../../src/core/skill/edits';
import { SLOW_UPDATE_END, SLOW_UPDATE_START } from '../../../src/core/skill/protected-regions';

const SKILL = `# Codes\n\n- Amber uses AMB9.\n- When unsure, answer none.\n\n${SLOW_UPDATE_START}\n- keep me\n${SLOW_UPDATE_END}\n`;

describe('edit screen before ranking', () => {
  it.each<[string, Edit, string]>([
    ['an echoed template op', { op: 'append|insert_after|replace|delete', content: '- a rule' }, 'unknown_op'],
    ['an unknown op', { op: 'rewrite', content: '- a rule' }, 'unknown_op'],
    ['an append without content', { op: 'append', content: '  ' }, 'empty_content'],
    ['placeholder content "..."', { op: 'append', content: '...' }, 'placeholder_content'],
    ['placeholder content "<new rule>"', { op: 'insert_after', target: '# Codes', content: '<new rule>' }, 'placeholder_content'],
    ['a replace whose target is absent', { op: 'replace', target: '- Amber uses AMB1.', content: '- x' }, 'target_absent'],
    ['a delete whose target is absent', { op: 'delete', target: '- Basalt uses BAS1.' }, 'target_absent'],
    ['a delete with a placeholder target', { op: 'delete', target: '...' }, 'target_absent'],
    ['a target inside the protected block', { op: 'delete', target: '- keep me' }, 'target_protected'],
    ['an append the skill already states', { op: 'append', content: '  - Amber uses AMB9.  ' }, 'already_stated'],
    ['a replace that changes nothing', { op: 'replace', target: '- Amber uses AMB9.', content: '- Amber uses AMB9.' }, 'already_stated'],
  ])('drops %s', (_name, edit, reason) => {
    const r = screenEdits(SKILL, [edit]);
    expect(r.kept).toEqual([]);
    expect(r.dropped).toEqual([{ index: 0, edit, reason }]);
  });

  it('keeps useful edits in order and drops later exact duplicates', () => {
    const edits: Edit[] = [
      { op: 'append', content: '- Basalt uses BAS1.' },
      { op: 'delete', target: '- When unsure, answer none.' },
      { op: 'append', content: '- Basalt uses BAS1.' },
      { op: 'delete', target: '- When unsure, answer none.', content: 'whatever' },
      { op: 'insert_after', target: 'not in the skill', content: '- Cobalt uses COB9.' },
      { op: 'replace', target: '- Amber uses AMB9.', content: '' },
    ];
    const r = screenEdits(SKILL, edits);
    expect(r.keptIndices).toEqual([0, 1, 4, 5]);
    expect(r.dropped.map((d) => [d.index, d.reason])).toEqual([
      [2, 'duplicate'],
      [3, 'duplicate'],
    ]);
  });

  it('recognises placeholders but not real short rules', () => {
    for (const p of ['...', '…', '"..."', '<rule>', '[text]', '{content}', 'TODO', 'new content']) expect(isPlaceholder(p), p).toBe(true);
    for (const r of ['- Use AMB9.', 'Always answer in capitals.', '- [x] done']) expect(isPlaceholder(r), r).toBe(false);
    expect(alreadyStated('a\n- b\n', '- b\n\na')).toBe(true);
    expect(alreadyStated('a\n- b\n', '- b\n- c')).toBe(false);
  });

  it('property: a kept edit always applies, a dropped one never takes budget, and none is lost', () => {
    const line = fc.stringMatching(/^[a-c .-]{0,6}$/);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }).chain((body) => {
          const skill = body.join('\n');
          const edit = fc.record({
            op: fc.constantFrom('append', 'insert_after', 'replace', 'delete', 'bogus', 'append|replace'),
            target: fc.oneof(fc.constantFrom(...(body.length ? body : [''])), fc.string({ maxLength: 4 })),
            content: fc.oneof(line, fc.constant('...'), fc.constant('')),
          });
          return fc.tuple(fc.constant(skill), fc.array(edit, { maxLength: 8 }));
        }),
        ([skill, edits]) => {
          const r = screenEdits(skill, edits);
          expect(r.kept.length + r.dropped.length).toBe(edits.length);
          for (const e of r.kept) expect(applyEdit(skill, e).status.startsWith('applied')).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('delete leaves no stack of blank lines', () => {
  it.each([
    ['a line between rules', 'a\n- x\nb\n', '- x', 'a\nb\n'],
    ['a paragraph between blank lines', 'a\n\n- x\n\nb\n', '- x', 'a\n\nb\n'],
    ['the first line', '- x\n\nb\n', '- x', 'b\n'],
    ['the last line', 'a\n\n- x\n', '- x', 'a\n'],
    ['part of a line', 'a - x b\n', '- x', 'a  b\n'],
  ])('delete of %s', (_n, skill, target, out) => {
    expect(applyEdit(skill, { op: 'delete', target }).skill).toBe(out);
    expect(applyEdit(skill, { op: 'replace', target, content: '' }).skill).toBe(out);
  });

  it('property: deleting whole lines never makes a run of 3+ empty lines', () => {
    const line = fc.stringMatching(/^[a-d]{1,3}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(line, fc.constant('')), { maxLength: 12 }), fc.array(fc.nat(11), { maxLength: 6 }), (ls, picks) => {
        // At most one empty line in a row to begin with, as in any tidy skill.
        const tidy = ls.filter((l, i) => l !== '' || ls[i - 1] !== '');
        const skill = `${tidy.join('\n')}\n`;
        const edits = picks.map((p) => ({ op: 'delete', target: tidy.filter(Boolean)[p % Math.max(1, tidy.filter(Boolean).length)] ?? 'zz' }));
        expect(applyPatch(skill, edits).skill).not.toMatch(/\n\n\n/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('edit screen: replaces of the same text', () => {
  it('combines them into the first, since only the first could apply', () => {
    const target = '- Amber uses AMB9.';
    const r = screenEdits(SKILL, [
      { op: 'replace', target, content: '- Amber uses AMB1.', support_count: 2 },
      { op: 'replace', target, content: '- Basalt uses BAS2.' },
      { op: 'replace', target, content: '- Amber uses AMB1.' },
    ]);
    expect(r.kept).toEqual([{ op: 'replace', target, content: '- Amber uses AMB1.\n- Basalt uses BAS2.', support_count: 3 }]);
    expect(r.dropped.map((d) => [d.index, d.reason])).toEqual([
      [1, 'combined'],
      [2, 'duplicate'],
    ]);
    expect(applyPatch(SKILL, r.kept).skill).toContain('- Amber uses AMB1.\n- Basalt uses BAS2.\n- When unsure');
  });
});
