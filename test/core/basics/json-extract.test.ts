import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractJsonArray, extractJsonObject, topLevelSpans, validatePayload } from '../../../src/core/basics/json-extract';

describe('extractJsonObject (§3.0)', () => {
  it.each([
    ['plain object', '{"a":1}', { a: 1 }],
    ['fenced json block first', 'x {"no":1}\n```json\n{"a":1}\n```\n', { a: 1 }],
    ['bare fence', '```\n{"a":2}\n```', { a: 2 }],
    ['greedy span around prose', 'Here you go: {"a":{"b":[1,2]}} done', { a: { b: [1, 2] } }],
    ['repairs trailing commas in a single object', 'Result: {"edits": [{"op": "append", "content": "x",},],}', { edits: [{ op: 'append', content: 'x' }] }],
    ['ignores braces inside quoted prose', 'He said "use {x}" then {"a": 1,}', { a: 1 }],
  ])('%s', (_n, text, expected) => {
    expect(extractJsonObject(text)).toEqual(expected);
  });

  it.each([
    ['no object', 'no json here'],
    ['empty', ''],
    ['a truncated object (issue #20 item 19)', '{"reasoning": "r", "edits": [{"op": "append", "content": "x"}'],
    ['prose pseudo-JSON is refused', 'Use `{op: delete}` to remove it'],
    ['two candidate objects are ambiguous', 'first {"a": 1,} and then {"b": 2,}'],
    ['an empty repaired object is refused', 'x { , } trailing'],
    ['arrays are not objects', '[1, 2, 3]'],
  ])('%s → null', (_n, text) => {
    expect(extractJsonObject(text)).toBeNull();
  });

  it('never throws on any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '"', '\\', '[', ']', ',', ':', 'a', '1', ' ', '\n', '`') }), (s) => {
        const v = extractJsonObject(s);
        return v === null || (typeof v === 'object' && !Array.isArray(v));
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.string(), (s) => extractJsonObject(s) !== undefined));
  });

  it('stays linear on large malformed output', () => {
    for (const garbage of ['{"a":'.repeat(200_000), '```json\n'.repeat(100_000), '"{'.repeat(300_000), '{'.repeat(500_000)]) {
      const t = performance.now();
      extractJsonObject(garbage);
      expect(performance.now() - t).toBeLessThan(2000);
    }
  });

  it('scans top-level spans, including one left open', () => {
    expect(topLevelSpans('a {b} c {d {e}} {f').map((sp) => [sp.start, sp.end, sp.closed])).toEqual([
      [2, 5, true],
      [8, 15, true],
      [16, 18, false],
    ]);
  });
});

describe('validatePayload', () => {
  it('accepts a list of objects', () => {
    expect(validatePayload({ edits: [{ op: 'append' }] }, 'edits')).toEqual({ ok: true, items: [{ op: 'append' }] });
    expect(validatePayload({ edits: [] }, 'edits')).toEqual({ ok: true, items: [] });
  });
  it.each([
    [null, 'response is not a JSON object'],
    [{}, '"edits" is missing or not a list'],
    [{ edits: 'x' }, '"edits" is missing or not a list'],
    [{ edits: [{}, 'x'] }, '"edits"[1] is not an object'],
  ])('%j is refused', (obj, reason) => {
    expect(validatePayload(obj, 'edits')).toEqual({ ok: false, reason });
  });
});

describe('extractJsonArray (issue #9 item 20)', () => {
  it('reads a fenced array, a bare array in prose, and refuses what is not one', () => {
    expect(extractJsonArray('Here:\n```json\n[1, {"a": 2}]\n```\nthanks')).toEqual([1, { a: 2 }]);
    expect(extractJsonArray('The indices are [2, 0, 5].')).toEqual([2, 0, 5]);
    expect(extractJsonArray('{"selected_indices": 3}')).toBeNull();
    expect(extractJsonArray('[1, 2')).toBeNull();
    expect(extractJsonArray('')).toBeNull();
  });

  it('property: any JSON array survives a round trip inside prose', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean())), (arr) => {
        expect(extractJsonArray(`Answer: ${JSON.stringify(arr)} — done`)).toEqual(arr);
      }),
    );
  });
});

describe('exactly one complete object, or nothing (issue #20 item 19)', () => {
  it('a truncated object is not repaired into partial data', () => {
    expect(extractJsonObject('{"reasoning": "r", "edits": [{"op": ')).toBeNull();
    expect(extractJsonObject('{"reasoning": "cut off here')).toBeNull();
  });

  it("an unclosed fenced block does not lend its edits to the reply", () => {
    const text = '```json\n{"edits": [{"op": "append", "content": "first"}\n```\n\n```json\n{"edits": []}\n```';
    const v = extractJsonObject(text);
    expect(JSON.stringify(v ?? {})).not.toContain('first');
  });

  it('a complete object is still mended (trailing comma, single quotes)', () => {
    expect(extractJsonObject('Sure: {"edits": [1, 2,], "x": 1,}')).toEqual({ edits: [1, 2], x: 1 });
  });
});

describe('the one top-level array (issue #20 item 20)', () => {
  it('an array inside an object is not the reply\'s array', () => {
    expect(extractJsonArray('{"a": [1, 2]}')).toBeNull();
  });

  it('a bracketed aside in prose does not hide the list', () => {
    expect(extractJsonArray('see [note] then [1, 2]')).toEqual([1, 2]);
  });

  it('two lists are ambiguous: nothing', () => {
    expect(extractJsonArray('[1] or [2]')).toBeNull();
  });
});
