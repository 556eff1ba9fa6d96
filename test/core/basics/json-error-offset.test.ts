import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonErrorOffset } from '../../../src/core/basics/json-error-offset';

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": oops}', 6],
    ['[1, 2,]', 6],
    ['{"a" 1}', 5],
    ['[1] x', 4],
    ['', 0],
    ['"\\x"', 1],
    ['[' + '['.repeat(100_000), 100_001],
  ])('%j fails at %d', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });
  it('returns -1 exactly when JSON.parse accepts the text (property)', () => {
    fc.assert(fc.property(fc.json(), (t) => jsonErrorOffset(t) === -1));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', 'a', ' ', 'true', '\\') }), (t) => {
        let valid = true;
        try {
          JSON.parse(t);
        } catch {
          valid = false;
        }
        return valid === (jsonErrorOffset(t) === -1);
      }),
      { numRuns: 3000 },
    );
  });
});
