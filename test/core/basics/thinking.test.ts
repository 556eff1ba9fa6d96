// Thinking blocks are kept in the trajectory but not scored or parsed (issue #23).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stripThinking } from '../../../src/core/basics/thinking';
import { extractJsonObject } from '../../../src/core/basics/json-extract';
import { scoreResponse } from '../../../src/core/scoring/scoring';

describe('stripThinking', () => {
  it.each([
    ['<think>maybe A</think>\nB', 'B'],
    ['<thinking>x</thinking>answer', 'answer'],
    ['reasoning without an opening tag</think>\nB', 'B'],
    ['A <think>aside</think> B <think>more</think> C', 'A  B  C'],
    ['<think>cut off while thinking', ''],
    ['no thinking here', 'no thinking here'],
  ])('%j → %j', (text, expected) => {
    expect(stripThinking(text)).toBe(expected);
  });

  it('property: a reply without think tags is untouched; linear on many open tags', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/<\/?think/i.test(s));
        return stripThinking(s) === s;
      }),
    );
    const t = performance.now();
    stripThinking('<think>'.repeat(100_000));
    expect(performance.now() - t).toBeLessThan(500);
  });

  it('the answer and the JSON come from after the thinking', () => {
    const reply = '<think>Perhaps <answer>DECOY</answer>, or {"edits": []}?</think>\nThe code is\nK-42';
    expect(scoreResponse({ kind: 'exact' }, reply, { answers: ['K-42'] }).hard).toBe(1);
    const json = '<think>I could answer {"edits": []}.</think>\n{"reasoning": "r", "edits": [{"op": "append", "content": "x"}]}';
    expect(extractJsonObject(json)).toEqual({ reasoning: 'r', edits: [{ op: 'append', content: 'x' }] });
  });
});
