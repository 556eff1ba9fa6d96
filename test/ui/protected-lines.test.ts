import { describe, expect, it } from 'vitest';
import { protectedLineRanges } from '../../src/ui/skill/protected-lines';
import { APPENDIX_END, APPENDIX_START, SLOW_UPDATE_END, SLOW_UPDATE_START } from '../../src/core/skill/protected-regions';

describe('protectedLineRanges', () => {
  it('gives the lines of each paired block, in document order', () => {
    const text = ['# Skill', APPENDIX_START, '- note', APPENDIX_END, 'rule', SLOW_UPDATE_START, 'guidance', SLOW_UPDATE_END].join('\n');
    expect(protectedLineRanges(text)).toEqual([
      { start: 2, end: 4, kind: 'Execution notes appendix' },
      { start: 6, end: 8, kind: 'Epoch guidance (slow update)' },
    ]);
  });

  it('highlights what the engine protects: a lone start marker is no block', () => {
    expect(protectedLineRanges(`# Skill\n${SLOW_UPDATE_START}\nrest of the skill\n`)).toEqual([]);
    // Markers sharing a line with text still mark their lines.
    expect(protectedLineRanges(`intro ${SLOW_UPDATE_START} g ${SLOW_UPDATE_END} outro`)).toEqual([{ start: 1, end: 1, kind: 'Epoch guidance (slow update)' }]);
  });
});
