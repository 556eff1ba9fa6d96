import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  cleanDescription,
  parseTriggerQueries,
  splitTriggerQueries,
  triggerItems,
  type TriggerQuery,
} from '../../../src/core/dataset/trigger-queries';
import { withDescription } from '../../../src/core/skill/skill-file';
import { callStageOfPhase, callStageOfPrompt } from '../../../src/core/config/stages';
import { estimateRunCalls } from '../../../src/core/config/call-count';
import { DEFAULT_RUN_CONFIG } from '../../../src/core/config/run-config';

const q = (id: string, shouldTrigger: boolean): TriggerQuery => ({ id, query: `request ${id}`, shouldTrigger });

describe('trigger queries (issue #23 item 4)', () => {
  it('reads the skill-creator shape and names each bad row and field', () => {
    const good = JSON.stringify([
      { query: 'make a chart', should_trigger: true },
      { query: 'plot my data', should_trigger: true },
      { query: 'what is the weather', should_trigger: false },
      { id: 'x', query: 'write a poem', should_trigger: false },
    ]);
    const r = parseTriggerQueries(good);
    expect(r).toEqual({
      ok: true,
      queries: [
        { id: 'q1', query: 'make a chart', shouldTrigger: true },
        { id: 'q2', query: 'plot my data', shouldTrigger: true },
        { id: 'q3', query: 'what is the weather', shouldTrigger: false },
        { id: 'x', query: 'write a poem', shouldTrigger: false },
      ],
    });
    expect(parseTriggerQueries(JSON.stringify({ queries: JSON.parse(good) })).ok).toBe(true);
    const bad = parseTriggerQueries(JSON.stringify([{ query: '', should_trigger: true }, { query: 'a', should_trigger: 'yes' }, 5]));
    expect(bad).toEqual({
      ok: false,
      problems: ['query 1, field "query": missing or empty', 'query 2, field "should_trigger": must be true or false', 'query 3: not an object'],
    });
    expect(parseTriggerQueries('{nope')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^not valid JSON/)] });
    expect(parseTriggerQueries(JSON.stringify([1, 2].map((i) => ({ query: `q${i}`, should_trigger: true }))))).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/at least 4/)],
    });
    const oneKind = JSON.stringify([1, 2, 3, 4].map((i) => ({ query: `q${i}`, should_trigger: true })));
    expect(parseTriggerQueries(oneKind)).toMatchObject({ ok: false, problems: [expect.stringMatching(/both kinds/)] });
  });

  // Issue #28 LOW: an id that is an object used to throw a TypeError out of String().
  it('names an id that is not a string or a number instead of throwing', () => {
    const rows = [
      { id: { toString: 0 }, query: 'make a chart', should_trigger: true },
      { id: ['a'], query: 'plot my data', should_trigger: true },
      { id: ' ', query: 'draw a map', should_trigger: false },
      { id: 7, query: 'what is the weather', should_trigger: false },
    ];
    expect(parseTriggerQueries(JSON.stringify(rows))).toEqual({
      ok: false,
      problems: [
        'query 1, field "id": must be a string or a number',
        'query 2, field "id": must be a string or a number',
        'query 3, field "id": empty',
      ],
    });
  });

  it('splits 2 : 1 : 1, each kind on its own, the same for the same seed (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 2, max: 40 }), fc.integer(), (yes, no, seed) => {
        const queries = [...Array.from({ length: yes }, (_, i) => q(`y${i}`, true)), ...Array.from({ length: no }, (_, i) => q(`n${i}`, false))];
        const s = splitTriggerQueries(queries, seed);
        const all = [...s.train, ...s.val, ...s.test];
        expect(all.sort()).toEqual(triggerItems(queries, 'x').map((i) => i.id).sort());
        for (const split of [s.train, s.val]) {
          expect(split.some((id) => id.startsWith('trigger:y'))).toBe(true);
          expect(split.some((id) => id.startsWith('trigger:n'))).toBe(true);
        }
        expect(splitTriggerQueries(queries, seed)).toEqual(s);
      }),
    );
  });

  it('makes items whose answer is yes or no and whose name field the template shows', () => {
    expect(triggerItems([q('a', true), q('b', false)], 'pdf-tools')).toEqual([
      { id: 'trigger:a', question: 'request a', answers: ['yes'], fields: { skill_name: 'pdf-tools' } },
      { id: 'trigger:b', question: 'request b', answers: ['no'], fields: { skill_name: 'pdf-tools' } },
    ]);
  });

  it('keeps a description to one line of at most 1 024 characters, without angle brackets', () => {
    expect(cleanDescription('  Use for <b>PDFs</b>.\n\nNot for images. ')).toBe('Use for bPDFs/b. Not for images.');
    const long = cleanDescription(`${'word '.repeat(300)}end.`);
    expect(long.length).toBeLessThanOrEqual(1024);
    expect(long.endsWith('word')).toBe(true);
  });

  it('bills the track under its own stages and estimates its calls', () => {
    expect(callStageOfPhase('activation/e01/gate')).toBe('activationRollout');
    expect(callStageOfPhase('activation/test/best')).toBe('activationRollout');
    expect(callStageOfPhase('activation/e02/gate/r1')).toBe('activationRollout');
    expect(callStageOfPrompt('describe_skill')).toBe('activationRewrite');
    const c = { ...DEFAULT_RUN_CONFIG, epochs: 3, activationTrack: true };
    const sizes = { train: 40, val: 20, test: 20 };
    const counts = estimateRunCalls(c, sizes, { triggers: { train: 20, val: 10, test: 10 } });
    expect(counts.activationRollout).toBe(10 + 3 * 2 * (20 + 10) + 2 * 10);
    expect(counts.activationRewrite).toBe(6);
    expect(estimateRunCalls({ ...c, activationTrack: false }, sizes, { triggers: { train: 20, val: 10, test: 10 } }).activationRollout).toBe(0);
  });
});

describe('a frontmatter with its description replaced', () => {
  it('replaces a plain, a quoted or a folded description and keeps every other line', () => {
    const plain = '---\nname: pdf\ndescription: Old one.\nlicense: MIT\n---\n';
    expect(withDescription(plain, 'New: "quoted".')).toBe('---\nname: pdf\ndescription: "New: \\"quoted\\"."\nlicense: MIT\n---\n');
    const folded = '---\nname: pdf\ndescription: >\n  Old, over\n  two lines.\nmetadata:\n  version: 1\n---\n';
    expect(withDescription(folded, 'New.')).toBe('---\nname: pdf\ndescription: "New."\nmetadata:\n  version: 1\n---\n');
  });

  it('adds a description after the name when there was none', () => {
    expect(withDescription('---\nname: pdf\nlicense: MIT\n---\n', 'New.')).toBe('---\nname: pdf\ndescription: "New."\nlicense: MIT\n---\n');
    expect(withDescription('', 'New.')).toBe('---\ndescription: "New."\n---\n');
  });
});
