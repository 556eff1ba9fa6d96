// Version origins (issue #21): typed, written and read in one place, in the stored form runs have always used.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { originKey, parseOrigin, type VersionOrigin } from '../../../src/core/skill/version-origin';

describe('version origins', () => {
  it('write the stored forms of existing runs', () => {
    expect(originKey({ kind: 'initial' })).toBe('initial_skill');
    expect(originKey({ kind: 'step', step: 7 })).toBe('step_0007');
    expect(originKey({ kind: 'appendix', step: 12 })).toBe('appendix_0012');
    expect(originKey({ kind: 'slow_update', epoch: 1, placeholder: true })).toBe('slow_update_placeholder_epoch_01');
    expect(originKey({ kind: 'slow_update', epoch: 2, placeholder: false })).toBe('slow_update_epoch_02');
  });

  it('read back what they write (property), and nothing else', () => {
    const origin: fc.Arbitrary<VersionOrigin> = fc.oneof(
      fc.constant({ kind: 'initial' as const }),
      fc.record({ kind: fc.constantFrom('step' as const, 'appendix' as const), step: fc.integer({ min: 0, max: 99_999 }) }),
      fc.record({ kind: fc.constant('slow_update' as const), epoch: fc.integer({ min: 1, max: 999 }), placeholder: fc.boolean() }),
    );
    fc.assert(fc.property(origin, (o) => {
      expect(parseOrigin(originKey(o))).toEqual(o);
    }));
    for (const s of ['edited', 'step_', 'step_7a', 'slow_update', 'appendix_0003/x', '']) expect(parseOrigin(s)).toBeNull();
  });
});
