import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyEdit, applyPatch, type Edit } from '../../../src/core/skill/edits';
import {
  SLOW_UPDATE_END,
  SLOW_UPDATE_START,
  APPENDIX_START,
  APPENDIX_END,
  getSlowUpdateContent,
} from '../../../src/core/skill/protected-regions';

const BODY = '# Skill\n\n## Rules\n- Be brief.\n- Cite sources.\n';
const WITH_SLOW = `${BODY}\n${SLOW_UPDATE_START}\nKeep answers short.\n${SLOW_UPDATE_END}\n`;

describe('applyEdit — table of the reference semantics (§1.5)', () => {
  const cases: [string, string, Edit, string, string][] = [
    ['append to a plain skill', BODY, { op: 'append', content: '  New rule.  ' }, 'applied_append', `${BODY.trimEnd()}\n\nNew rule.\n`],
    [
      'append lands before the protected region',
      WITH_SLOW,
      { op: 'append', content: 'New rule.' },
      'applied_append_before_protected_region',
      `${BODY.trimEnd()}\n\nNew rule.\n\n${SLOW_UPDATE_START}\nKeep answers short.\n${SLOW_UPDATE_END}\n`,
    ],
    [
      'insert_after goes after the end of the target line',
      BODY,
      { op: 'insert_after', target: 'Be brief', content: '- Use units.' },
      'applied_insert_after',
      '# Skill\n\n## Rules\n- Be brief.\n\n- Use units.\n- Cite sources.\n',
    ],
    [
      'insert_after with a target on the last line without newline',
      'a\nlast line',
      { op: 'insert_after', target: 'last', content: 'X' },
      'applied_insert_after',
      'a\nlast line\nX\n',
    ],
    ['insert_after with a missing target falls back to append', BODY, { op: 'insert_after', target: 'nope', content: 'X' }, 'applied_insert_after_fallback_append', `${BODY.trimEnd()}\n\nX\n`],
    ['insert_after with an empty target falls back to append', BODY, { op: 'insert_after', target: '', content: 'X' }, 'applied_insert_after_fallback_append', `${BODY.trimEnd()}\n\nX\n`],
    [
      'insert_after fallback before a protected region',
      WITH_SLOW,
      { op: 'insert_after', target: 'nope', content: 'X' },
      'applied_insert_after_fallback_before_protected_region',
      `${BODY.trimEnd()}\n\nX\n\n${SLOW_UPDATE_START}\nKeep answers short.\n${SLOW_UPDATE_END}\n`,
    ],
    ['replace the first occurrence', 'a b a', { op: 'replace', target: 'a', content: 'c' }, 'applied_replace', 'c b a'],
    ['replace is case-sensitive', 'Alpha', { op: 'replace', target: 'alpha', content: 'x' }, 'skipped_replace_target_not_found', 'Alpha'],
    ['replace without target', 'abc', { op: 'replace', content: 'x' }, 'skipped_replace_missing_target', 'abc'],
    ['delete the first occurrence', 'x- a\n- a\n', { op: 'delete', target: '- a\n' }, 'applied_delete', 'x- a\n'],
    ['delete without target', 'abc', { op: 'delete' }, 'skipped_delete_missing_target', 'abc'],
    ['delete target not found', 'abc', { op: 'delete', target: 'z' }, 'skipped_delete_target_not_found', 'abc'],
    ['unknown op', 'abc', { op: 'rewrite', content: 'z' }, 'skipped_unknown_op', 'abc'],
    ['target inside the protected region is refused', WITH_SLOW, { op: 'replace', target: 'Keep answers short.', content: 'x' }, 'skipped_protected_region', WITH_SLOW],
    ['delete of a marker is refused', WITH_SLOW, { op: 'delete', target: SLOW_UPDATE_END }, 'skipped_protected_region', WITH_SLOW],
    ['append with a target in the region is refused (checked for every op)', WITH_SLOW, { op: 'append', target: 'Keep answers', content: 'x' }, 'skipped_protected_region', WITH_SLOW],
    ['a target that runs into the region is refused', WITH_SLOW, { op: 'replace', target: `Cite sources.\n\n${SLOW_UPDATE_START}`, content: 'x' }, 'skipped_protected_region', WITH_SLOW],
    [
      'insert_after whose insertion point is inside a region is refused',
      `abc${SLOW_UPDATE_START}\nX\n${SLOW_UPDATE_END}\n`,
      { op: 'insert_after', target: 'abc', content: 'Y' },
      'skipped_protected_region',
      `abc${SLOW_UPDATE_START}\nX\n${SLOW_UPDATE_END}\n`,
    ],
  ];
  it.each(cases)('%s', (_name, skill, edit, status, expected) => {
    const r = applyEdit(skill, edit);
    expect(r.status).toBe(status);
    expect(r.skill).toBe(expected);
  });

  it('keeps $&, $1 and $$ in model content verbatim', () => {
    const r = applyEdit('price: X', { op: 'replace', target: 'X', content: 'costs $& and $1 or $$' });
    expect(r.skill).toBe('price: costs $& and $1 or $$');
    const d = applyEdit('a $& b', { op: 'delete', target: '$&' });
    expect(d.skill).toBe('a  b');
  });

  it('strips marker strings from content so a model cannot forge a region', () => {
    const r = applyEdit(BODY, { op: 'append', content: `${SLOW_UPDATE_START}evil${SLOW_UPDATE_END}` });
    expect(r.skill).not.toContain(SLOW_UPDATE_START);
    expect(r.skill).toContain('evil');
  });

  it('uses the target raw (untrimmed)', () => {
    expect(applyEdit('a  b', { op: 'replace', target: ' b', content: 'c' }).skill).toBe('a c');
  });

  it('treats the appendix as protected too', () => {
    const s = `${BODY}\n${APPENDIX_START}\n- note\n${APPENDIX_END}\n`;
    expect(applyEdit(s, { op: 'delete', target: '- note' }).status).toBe('skipped_protected_region');
  });
});

describe('applyPatch', () => {
  it('applies edits sequentially: a target removed earlier becomes not found', () => {
    const r = applyPatch('alpha beta', [
      { op: 'delete', target: 'alpha ' },
      { op: 'replace', target: 'alpha', content: 'x' },
      { op: 'append', content: 'gamma' },
    ]);
    expect(r.skill).toBe('beta\n\ngamma\n');
    expect(r.report.map((x) => x.status)).toEqual(['applied_delete', 'skipped_replace_target_not_found', 'applied_append']);
    expect(r.report[0].index).toBe(1);
    expect(r.summary).toEqual({ total: 3, applied: 2, skipped: 1, errors: 0 });
  });

  it('cuts report previews at 200 characters', () => {
    const long = 'x'.repeat(500);
    const r = applyPatch('', [{ op: 'append', content: long, target: long }]);
    expect(r.report[0].content_preview).toHaveLength(200);
    expect(r.report[0].target).toHaveLength(200);
  });

  it('never throws on malformed edits', () => {
    const r = applyPatch('abc', [{ op: 'replace', target: 5 as unknown as string, content: null as unknown as string }]);
    expect(r.summary.total).toBe(1);
  });
});

describe('patch invariants (property tests)', () => {
  const line = fc.stringMatching(/^[a-z .$&]{0,12}$/);
  const arbSkill = fc
    .tuple(fc.array(line, { maxLength: 6 }), fc.array(line, { maxLength: 3 }), fc.boolean())
    .map(([body, guidance, hasRegion]) =>
      hasRegion
        ? `${body.join('\n')}\n\n${SLOW_UPDATE_START}\n${guidance.join('\n')}\n${SLOW_UPDATE_END}\n`
        : body.join('\n'),
    );
  const arbEdit = (skill: string) =>
    fc.record({
      op: fc.constantFrom('append', 'insert_after', 'replace', 'delete', 'bogus'),
      // Targets are often real substrings of the skill, including ones inside or across the region.
      target: fc.oneof(
        fc.tuple(fc.nat(skill.length), fc.nat(40)).map(([a, n]) => skill.slice(a, a + n)),
        fc.string({ maxLength: 5 }),
      ),
      content: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(`${SLOW_UPDATE_END}x${SLOW_UPDATE_START}`)),
    });

  it('a patch never changes text inside a protected region', () => {
    fc.assert(
      fc.property(
        arbSkill.chain((s) => fc.tuple(fc.constant(s), fc.array(arbEdit(s), { maxLength: 6 }))),
        ([skill, edits]) => {
          const out = applyPatch(skill, edits).skill;
          if (skill.includes(SLOW_UPDATE_START)) {
            expect(getSlowUpdateContent(out)).toBe(getSlowUpdateContent(skill));
            expect(out.split(SLOW_UPDATE_START)).toHaveLength(2);
            expect(out.split(SLOW_UPDATE_END)).toHaveLength(2);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the empty patch is the identity', () => {
    fc.assert(fc.property(fc.string(), (s) => applyPatch(s, []).skill === s));
  });
});

describe('edit report (issue #9 item 15)', () => {
  it('previews the content as applied — trimmed, markers stripped — and echoes the op as given', () => {
    const r = applyPatch('# A\n', [{ op: 'append', content: `   - new rule ${SLOW_UPDATE_START}  \n` }, { op: 'Rewrite', content: 'x' }]);
    expect(r.report[0].content_preview).toBe('- new rule');
    expect(r.skill).toContain('- new rule');
    expect(r.report[1].op).toBe('Rewrite');
  });
});

describe('edit report and append targets (issue #20 item 25)', () => {
  it('an edit without an op is reported with an empty op, not "undefined"', () => {
    const r = applyPatch('# A\n', [{ content: 'x' } as unknown as Edit]);
    expect(r.report[0].op).toBe('');
    expect(r.report[0].status).toBe('skipped_unknown_op');
  });

  it('an append whose unused target straddles a protected block is still applied', () => {
    const straddling = `Cite sources.\n\n${SLOW_UPDATE_START}`;
    expect(WITH_SLOW).toContain(straddling);
    const r = applyEdit(WITH_SLOW, { op: 'append', target: straddling, content: '- New rule.' });
    expect(r.status).toMatch(/^applied_append/);
    expect(r.skill).toContain('- New rule.');
    expect(getSlowUpdateContent(r.skill)).toBe('Keep answers short.');
  });
});
