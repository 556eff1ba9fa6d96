import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  APPENDIX_END,
  APPENDIX_START,
  MARKERS,
  SLOW_UPDATE_END,
  SLOW_UPDATE_START,
  appendixNoteKey,
  findProtectedRegions,
  getAppendixNotes,
  getSlowUpdateContent,
  injectEmptyAppendix,
  injectEmptySlowUpdate,
  isInProtectedRegion,
  mergeAppendixNotes,
  replaceAppendixNotes,
  removeMarkers,
  replaceSlowUpdateBlock,
  stripProtectedRegions,
} from '../../../src/core/skill/protected-regions';
import { applyEdit } from '../../../src/core/skill/edits';
import { semanticDensity } from '../../../src/core/verdict/gate';

describe('protected regions', () => {
  it('finds a region from its start marker to the end of its end marker', () => {
    const s = `ab${SLOW_UPDATE_START}x${SLOW_UPDATE_END}cd`;
    const [r] = findProtectedRegions(s);
    expect(r).toEqual({ kind: 'slow_update', start: 2, end: s.length - 2 });
    expect(isInProtectedRegion(s, 1)).toBe(false);
    expect(isInProtectedRegion(s, 2)).toBe(true);
    expect(isInProtectedRegion(s, s.length - 3)).toBe(true);
    expect(isInProtectedRegion(s, s.length - 2)).toBe(false);
  });

  it('ignores a start marker without an end marker, and an end before the start', () => {
    expect(findProtectedRegions(`a${SLOW_UPDATE_START}b`)).toEqual([]);
    expect(findProtectedRegions(`${SLOW_UPDATE_END}a${SLOW_UPDATE_START}b`)).toEqual([]);
  });

  it('removes all four markers from text', () => {
    expect(removeMarkers(`a${SLOW_UPDATE_START}b${APPENDIX_END}c${APPENDIX_START}${SLOW_UPDATE_END}`)).toBe('abc');
  });

  it('injects an empty slow-update block once', () => {
    const once = injectEmptySlowUpdate('# Skill\n\n\n');
    expect(once).toBe(`# Skill\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`);
    expect(injectEmptySlowUpdate(once)).toBe(once);
    expect(getSlowUpdateContent(once)).toBe('');
  });

  it('replaces the slow-update block, leaving exactly one at the very end', () => {
    const s = `# A\n\n${SLOW_UPDATE_START}\nold\n${SLOW_UPDATE_END}\n\n## B\ntext\n`;
    const out = replaceSlowUpdateBlock(s, '  new guidance  ');
    expect(out).toBe(`# A\n\n## B\ntext\n\n${SLOW_UPDATE_START}\nnew guidance\n${SLOW_UPDATE_END}\n`);
    expect(getSlowUpdateContent(out)).toBe('new guidance');
  });

  it('removes orphan starts and stray ends when replacing, but never the text after an orphan start (issue #9 item 16)', () => {
    const s = `# A\n${SLOW_UPDATE_END}\nbody\n${SLOW_UPDATE_START}\ndangling`;
    const out = replaceSlowUpdateBlock(s, 'g');
    expect(out).toBe(`# A\nbody\ndangling\n\n${SLOW_UPDATE_START}\ng\n${SLOW_UPDATE_END}\n`);
  });

  it('a lone START marker is no block: replacing keeps every rule after it', () => {
    const rules = Array.from({ length: 5 }, (_, i) => `- rule ${i}`).join('\n');
    const out = replaceSlowUpdateBlock(`# A\n${SLOW_UPDATE_START}\n${rules}\n`, 'g');
    expect(out).toContain(rules);
    expect(findProtectedRegions(out)).toHaveLength(1);
    expect(getSlowUpdateContent(out)).toBe('g');
  });

  it('a block that sat inside a line leaves the line whole (issue #9 item 18)', () => {
    const s = `# A\n- keep ${SLOW_UPDATE_START}old${SLOW_UPDATE_END} this line\n- next\n`;
    const out = replaceSlowUpdateBlock(s, 'g');
    expect(out.startsWith('# A\n- keep  this line\n- next')).toBe(true);
  });

  it('keeps the body bytes elsewhere (no global newline collapsing)', () => {
    const s = `# A\n\n\n\nkeep my blank lines\n`;
    expect(replaceSlowUpdateBlock(s, 'g').startsWith('# A\n\n\n\nkeep my blank lines')).toBe(true);
  });

  it('replacement is idempotent for the same content', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (body, g) => {
        const once = replaceSlowUpdateBlock(body, g);
        return replaceSlowUpdateBlock(once, g) === once && once.split(SLOW_UPDATE_START).length === 2;
      }),
    );
  });

  it('strips protected regions for body measures', () => {
    expect(stripProtectedRegions(`a${SLOW_UPDATE_START}x${SLOW_UPDATE_END}b${APPENDIX_START}y${APPENDIX_END}c`)).toBe('abc');
  });
});

describe('appendix helpers', () => {
  it('injects an empty appendix once', () => {
    const s = injectEmptyAppendix('# S');
    expect(s).toBe(`# S\n\n${APPENDIX_START}\n## Execution Notes Appendix\n${APPENDIX_END}\n`);
    expect(injectEmptyAppendix(s)).toBe(s);
  });

  it('merges notes with order-preserving dedup by normalised key', () => {
    let s = mergeAppendixNotes('# S', ['Check units.', 'Quote  the source']);
    s = mergeAppendixNotes(s, ['check UNITS', 'New note;', 'quote the source.']);
    expect(getAppendixNotes(s)).toEqual(['Check units.', 'Quote  the source', 'New note;']);
    expect(appendixNoteKey('  Foo   bar ._-')).toBe('foo bar');
  });
});

describe('appendix notes written by hand (issue #9 item 17)', () => {
  it('keeps notes without a "- " bullet when merging', () => {
    const skill = `# A\n\n${APPENDIX_START}\n## Execution Notes Appendix\n* starred note\nplain note\n1. numbered note\n- dashed note\n${APPENDIX_END}\n`;
    expect(getAppendixNotes(skill)).toEqual(['starred note', 'plain note', 'numbered note', 'dashed note']);
    const merged = mergeAppendixNotes(skill, ['new note', 'plain note.']);
    for (const n of ['starred note', 'plain note', 'numbered note', 'dashed note', 'new note']) expect(merged).toContain(`- ${n}`);
    expect(getAppendixNotes(merged)).toHaveLength(5);
  });
});

describe('forged markers in model-written text (issue #9 item 3)', () => {
  const nested = (m: string) => `${m.slice(0, 10)}${m}${m.slice(10)}`;
  it('a marker hidden inside a marker is removed too', () => {
    for (const m of MARKERS) expect(removeMarkers(`a ${nested(m)} b`)).toBe('a  b');
    expect(removeMarkers(nested(nested(SLOW_UPDATE_START)))).toBe('');
  });

  it('an edit carrying a forged marker adds no protected region', () => {
    const skill = '# Skill\n\n- one rule\n';
    for (const m of MARKERS) {
      const r = applyEdit(skill, { op: 'append', content: `- rule ${nested(m)} text` });
      expect(MARKERS.some((x) => r.skill.includes(x))).toBe(false);
      expect(findProtectedRegions(r.skill)).toEqual([]);
    }
  });

  it('property: removeMarkers leaves no marker, whatever the interleaving', () => {
    const piece = fc.constantFrom(...MARKERS, ...MARKERS.map((m) => m.slice(0, 9)), ...MARKERS.map((m) => m.slice(9)), 'x', ' ');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const out = removeMarkers(parts.join(''));
      for (const m of MARKERS) expect(out).not.toContain(m);
    }));
  });
});

describe('skill-aware appendix: replacing the notes', () => {
  it('keeps exactly the given notes, deduplicated, and leaves the rest of the skill alone', () => {
    const skill = mergeAppendixNotes(replaceSlowUpdateBlock('# S\n- rule\n', 'guide'), ['one', 'two', 'three']);
    const out = replaceAppendixNotes(skill, ['Two.', 'two', 'four']);
    expect(getAppendixNotes(out)).toEqual(['Two.', 'four']);
    expect(getSlowUpdateContent(out)).toBe('guide');
    expect(out.startsWith('# S\n- rule\n')).toBe(true);
    expect(getAppendixNotes(replaceAppendixNotes('# S\n', ['x']))).toEqual(['x']);
  });
});

describe('hand-edited appendix markers (issue #20 items 5, 22, 24)', () => {
  const notesBlock = (...lines: string[]) => [APPENDIX_START, '## Execution Notes Appendix', ...lines, APPENDIX_END].join('\n');

  it('with the END marker deleted, body rules stay body rules and are never turned into notes', () => {
    const skill = `# S\n\n${APPENDIX_START}\n## Execution Notes Appendix\n- a note\n\n## Rules\n- Rule one.\n- Rule two.\n`;
    const merged = mergeAppendixNotes(skill, ['new note']);
    expect(getAppendixNotes(merged)).toEqual(['new note']);
    const body = merged.slice(0, merged.indexOf(APPENDIX_START));
    for (const rule of ['- Rule one.', '- Rule two.', '## Rules', '- a note']) expect(body).toContain(rule);
    expect(merged.split(APPENDIX_START)).toHaveLength(2);
  });

  it('with END before START, no text after START is lost', () => {
    const skill = `# S\n${APPENDIX_END}\n- Rule one.\n${APPENDIX_START}\n- Rule after start.\n`;
    const merged = mergeAppendixNotes(skill, ['new note']);
    for (const rule of ['- Rule one.', '- Rule after start.']) expect(merged).toContain(rule);
    expect(getAppendixNotes(merged)).toEqual(['new note']);
    const replaced = replaceAppendixNotes(skill, ['only note']);
    expect(replaced).toContain('- Rule after start.');
    expect(getAppendixNotes(replaced)).toEqual(['only note']);
  });

  it('a reversed pair is no block: it has no notes', () => {
    expect(getAppendixNotes(`${APPENDIX_END}\n- x\n${APPENDIX_START}\n- y`)).toEqual([]);
  });

  it('property: merging never loses a body line, whatever the markers', () => {
    const piece = fc.constantFrom(APPENDIX_START, APPENDIX_END, '- Rule alpha.', '- Rule beta.', '## Heading', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const skill = pieces.join('\n');
        const merged = mergeAppendixNotes(skill, ['fresh note']);
        const kept = merged.slice(0, merged.indexOf(APPENDIX_START));
        const span = skill.indexOf(APPENDIX_START);
        const paired = span >= 0 && skill.indexOf(APPENDIX_END, span) >= 0;
        const outside = paired ? skill.slice(0, span) + skill.slice(skill.indexOf(APPENDIX_END, span)) : skill;
        for (const line of ['- Rule alpha.', '- Rule beta.']) {
          if (outside.includes(line)) expect(kept + merged.slice(merged.indexOf(APPENDIX_END))).toContain(line);
        }
        expect(getAppendixNotes(merged)).toContain('fresh note');
      }),
    );
  });

  it('a heading of any level and a "-dash" bullet are read as the reference reads them', () => {
    const skill = `# S\n\n${notesBlock('# Execution Notes Appendix', '### Later notes', '-dash note', '- spaced note')}\n`;
    expect(getAppendixNotes(skill)).toEqual(['dash note', 'spaced note']);
    const merged = mergeAppendixNotes(skill, []);
    expect(merged).not.toContain('- # Execution Notes Appendix');
    expect(merged).not.toContain('- -dash note');
    expect(merged).toContain('- dash note');
  });

  it('semantic density ignores the words of an unpaired marker', () => {
    expect(semanticDensity(`${SLOW_UPDATE_START} only`)).toBe(1);
    expect(semanticDensity(`${APPENDIX_END} never mind`)).toBe(0.5);
  });
});
