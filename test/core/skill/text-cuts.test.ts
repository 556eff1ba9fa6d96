// One-pass cuts (issue #28 LOW): the same result as cutting and searching again, in linear time.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { joinCuts, removeAll } from '../../../src/core/skill/text-cuts';

/** The former join of two pieces around a cut. */
function joinAtCut(before: string, after: string): string {
  const head = before.replace(/\n+$/, '');
  const tail = after.replace(/^\n+/, '');
  if (!head) return tail;
  if (!tail) return head;
  return head + '\n'.repeat(Math.min(2, Math.max(before.length - head.length, after.length - tail.length))) + tail;
}

/** The former removal: until no string is left. */
function removeUntilStable(text: string, strings: readonly string[]): string {
  let out = text;
  for (;;) {
    let next = out;
    for (const s of strings) next = next.split(s).join('');
    if (next === out) return out;
    out = next;
  }
}

const piece = fc.array(fc.constantFrom('a', 'b', '\n', ' '), { maxLength: 6 }).map((a) => a.join(''));

describe('text cuts', () => {
  it('property: joinCuts joins pieces as the cut-by-cut join did', () => {
    fc.assert(fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (pieces) => {
      expect(joinCuts(pieces)).toBe(pieces.slice(1).reduce(joinAtCut, pieces[0]));
    }));
  });

  it('property: removeAll leaves none of the strings, nested ones included, and keeps text without them', () => {
    const markers = ['<!--S-->', '<!--E-->'];
    const text = fc.array(fc.constantFrom('<!--', 'S', 'E', '-->', 'x', '\n'), { maxLength: 20 }).map((a) => a.join(''));
    fc.assert(fc.property(text, (t) => {
      const out = removeAll(t, markers);
      for (const m of markers) expect(out).not.toContain(m);
      expect(out).toBe(removeUntilStable(t, markers));
    }));
    expect(removeAll('no markers here', markers)).toBe('no markers here');
  });
});
