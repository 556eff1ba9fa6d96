import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractAnswer } from '../../../src/core/scoring/answer-extraction';
import { levenshtein, squadNormalise, tokenF1 } from '../../../src/core/scoring/text-normalise';
import { anls, parseChoiceLabel, parseNumber, scoreResponse, type ScorerSpec } from '../../../src/core/scoring/scoring';

describe('answer extraction', () => {
  it.each([
    ['Reasoning...\n<answer> Paris </answer>', 'Paris'],
    ['<ANSWER>a</ANSWER> then <answer>b</answer>', 'b'],
    ['<answer>multi\nline</answer>', 'multi\nline'],
    ['no tags\nlast line  \n\n', 'last line'],
    ['<answer>unclosed', '<answer>unclosed'],
    ['   ', ''],
    ['</answer> <answer>x', '</answer> <answer>x'],
    // Nested tags: left-to-right non-greedy matches, as the reference's findall (issue #20 item 21).
    ['<answer><answer>x</answer></answer>', '<answer>x'],
    ['<answer>a</answer> <answer>b <answer>c</answer>', 'b <answer>c'],
  ])('%j → %j', (response, expected) => {
    expect(extractAnswer(response)).toBe(expected);
  });
  it('is linear on many unclosed tags', () => {
    const big = '<answer>'.repeat(200_000);
    const t = performance.now();
    extractAnswer(big);
    expect(performance.now() - t).toBeLessThan(500);
  });
});

describe('SQuAD normalisation and token F1', () => {
  it.each([
    ['The Eiffel Tower!', 'eiffel tower'],
    ['An apple, a day.', 'apple day'],
    ['  Theatre   the  ', 'theatre'],
    ["O'Neil", 'oneil'],
  ])('%j → %j', (input, expected) => expect(squadNormalise(input)).toBe(expected));
  it('uses multiset overlap', () => {
    expect(tokenF1('a a b', 'a b b')).toBeCloseTo(2 / 3, 12);
    expect(tokenF1('x', 'y')).toBe(0);
    expect(tokenF1('', '')).toBe(1);
  });
  it('levenshtein', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
  });
});

const score = (spec: ScorerSpec, response: string, answers: string[], extra = {}) =>
  scoreResponse(spec, response, { answers, ...extra });

describe('exact scorer', () => {
  it('passes on normalised equality with any gold; soft is F1', () => {
    const r = score({ kind: 'exact' }, '<answer>the eiffel tower</answer>', ['Tour Eiffel', 'Eiffel Tower']);
    expect(r).toMatchObject({ hard: 1, soft: 1 });
    expect(r.failReason).toBeUndefined();
  });
  it('states expected vs got when it fails', () => {
    const r = score({ kind: 'exact' }, '<answer>Eiffel</answer>', ['Eiffel Tower']);
    expect(r.hard).toBe(0);
    expect(r.soft).toBeCloseTo(2 / 3, 12);
    expect(r.failReason).toBe("EM=0: predicted 'Eiffel' but expected ['Eiffel Tower']");
    expect(r.extras?.sub_em).toBe(1);
  });
  it('empty prediction: F1 is 1 only when a gold is empty too', () => {
    expect(score({ kind: 'exact' }, '<answer></answer>', ['x']).soft).toBe(0);
    expect(score({ kind: 'exact' }, '<answer></answer>', ['the']).soft).toBe(1);
  });
});

describe('mcq scorer', () => {
  const choices = [
    { label: 'A', text: 'Paris' },
    { label: 'B', text: 'Lyon' },
  ];
  it.each([
    ['<answer>B</answer>', 'B'],
    ['<answer>b)</answer>', 'B'],
    ['<answer>lyon</answer>', 'B'],
    ['<answer>B. Lyon</answer>', 'B'],
    ['<answer>Z</answer>', 'Z'],
  ])('%j → label %s', (response, label) => {
    expect(parseChoiceLabel(extractAnswer(response), choices)).toBe(label);
  });
  it('an empty answer is wrong even when the correct choice has empty text (issue #20 item 23)', () => {
    const withEmpty = [{ label: 'A', text: 'Paris' }, { label: 'B', text: '' }];
    expect(score({ kind: 'mcq' }, '<answer></answer>', [], { choices: withEmpty, correctChoice: 'B' }).hard).toBe(0);
    expect(score({ kind: 'mcq' }, '<answer>B</answer>', [], { choices: withEmpty, correctChoice: 'B' }).hard).toBe(1);
  });
  it('compares with the correct label', () => {
    expect(score({ kind: 'mcq' }, '<answer>A</answer>', [], { choices, correctChoice: 'a.' }).hard).toBe(1);
    const r = score({ kind: 'mcq' }, '<answer>A</answer>', [], { choices, correctChoice: 'B' });
    expect(r.failReason).toBe("MCQ=0: predicted 'A' but expected 'B'");
  });
});

describe('contains, numeric, regex, anls', () => {
  it('contains: whole-word normalised containment in the response', () => {
    expect(score({ kind: 'contains' }, 'It is Paris, France.', ['paris']).hard).toBe(1);
    expect(score({ kind: 'contains' }, 'Parisian', ['paris']).hard).toBe(0);
    expect(score({ kind: 'contains' }, 'x', ['y']).failReason).toMatch(/^CONTAINS=0: predicted 'x' but expected \['y'\]/);
  });
  it.each([
    ['$1,234.50', 1234.5],
    ['−3e2 apples', -300],
    ['about .5%', 0.5],
    ['none', null],
  ])('parseNumber(%j) = %s', (t, n) => expect(parseNumber(t)).toBe(n));
  it('numeric: tolerance and a fail reason', () => {
    expect(score({ kind: 'numeric', relTol: 0.01 }, '<answer>100.5</answer>', ['100']).hard).toBe(1);
    const r = score({ kind: 'numeric', relTol: 0.001 }, '<answer>110</answer>', ['100']);
    expect(r.hard).toBe(0);
    expect(r.soft).toBeCloseTo(0.9, 12);
    expect(r.failReason).toContain("predicted '110' but expected ['100']");
    expect(score({ kind: 'numeric' }, 'no idea', ['3']).failReason).toMatch(/^NUMERIC=0 no number:/);
  });
  it('regex: patterns from the expected answers', () => {
    expect(score({ kind: 'regex', flags: 'i' }, '<answer>ISO-8601</answer>', ['^iso-\\d+$']).hard).toBe(1);
    expect(score({ kind: 'regex' }, '<answer>x</answer>', ['^y$']).failReason).toContain("predicted 'x'");
    expect(score({ kind: 'regex' }, '<answer>x</answer>', ['(']).failReason).toMatch(/invalid pattern/);
  });
  it('anls: thresholded normalised edit similarity', () => {
    expect(anls('hello', ['hello'])).toBe(1);
    expect(anls('helo', ['hello'])).toBeCloseTo(0.8, 12);
    expect(anls('xyz', ['hello'])).toBe(0);
    expect(anls('', [''])).toBe(1);
    const r = score({ kind: 'anls' }, '<answer>helo</answer>', ['hello']);
    expect(r).toMatchObject({ hard: 0 });
    expect(r.failReason).toContain('ANLS 0.80');
  });
  it('judge cannot be scored without an LLM', () => {
    expect(() => score({ kind: 'judge' }, 'x', ['y'])).toThrow(/engine/);
  });
});

describe('scorer invariants', () => {
  const specs: ScorerSpec[] = [{ kind: 'exact' }, { kind: 'mcq' }, { kind: 'contains' }, { kind: 'numeric' }, { kind: 'anls' }];
  it('hard and soft stay in [0,1]; a failure always has a reason', () => {
    fc.assert(
      fc.property(fc.constantFrom(...specs), fc.string(), fc.array(fc.string(), { minLength: 1, maxLength: 3 }), (spec, resp, answers) => {
        const r = scoreResponse(spec, resp, { answers });
        expect(r.hard).toBeGreaterThanOrEqual(0);
        expect(r.hard).toBeLessThanOrEqual(1);
        expect(r.soft).toBeGreaterThanOrEqual(0);
        expect(r.soft).toBeLessThanOrEqual(1);
        if (r.hard < 1e-9) expect(r.failReason).toBeTruthy();
      }),
    );
  });
});
