import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bestCpuTimed } from '../../support/cpu-time';
import { importDatasetText, type ImportResult } from '../../../src/core/dataset/dataset-import';
import { largestRemainder, parseRatio, splitByRatio } from '../../../src/core/dataset/dataset-split';
import { detectMapping } from '../../../src/core/dataset/dataset-mapping';
import { formatProblem } from '../../../src/core/dataset/dataset-types';

const qa = (n: number, extra: (i: number) => object = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({ id: `q${i}`, question: `Question ${i}?`, answer: `A${i}`, ...extra(i) }));

function ok(r: ImportResult) {
  if (!r.ok) throw new Error(r.problems.map(formatProblem).join('\n'));
  return r.dataset;
}
function problems(r: ImportResult): string[] {
  if (r.ok) throw new Error('expected problems');
  return r.problems.map(formatProblem);
}

describe('formats', () => {
  it('reads a JSON array, detects the mapping and splits 2:1:7 by default', () => {
    const d = ok(importDatasetText(JSON.stringify(qa(100))));
    expect(d.format).toBe('json');
    expect(d.mapping).toMatchObject({ id: 'id', question: 'question', expected: 'answer' });
    expect([d.splits.train.length, d.splits.val.length, d.splits.test.length]).toEqual([20, 10, 70]);
    expect(d.splitSource).toBe('ratio');
    expect(d.items[0].answers).toHaveLength(1);
  });

  it('reads {train, valid, test} with split aliases and keeps the file order', () => {
    const text = JSON.stringify({ train: qa(3), validation: qa(2).map((x) => ({ ...x, id: `v${x.id}` })), test: [] });
    const d = ok(importDatasetText(text));
    expect(d.format).toBe('json-splits');
    expect(d.splits).toEqual({ train: ['q0', 'q1', 'q2'], val: ['vq0', 'vq1'], test: [] });
    expect(d.splitSource).toBe('file');
  });

  it('reads JSONL and names the broken line', () => {
    const lines = qa(3).map((x) => JSON.stringify(x));
    expect(ok(importDatasetText(lines.join('\n'), { fileName: 'x.jsonl' })).items).toHaveLength(3);
    const bad = [lines[0], '{"question": "oops"', lines[2]].join('\n');
    const p = problems(importDatasetText(bad, { fileName: 'x.jsonl' }));
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^Line 2: not valid JSON/);
  });

  it('reads CSV with a header, JSON lists in cells, and spreadsheet row numbers', () => {
    const csv = 'prompt,answers,split\n"What, exactly?","[""x"",""y""]",train\nSecond,z,val\n';
    const d = ok(importDatasetText(csv, { fileName: 'd.csv' }));
    expect(d.items[0]).toMatchObject({ question: 'What, exactly?', answers: ['x', 'y'], split: 'train' });
    expect(d.mapping.question).toBe('prompt');
    const p = problems(importDatasetText('question,answer\nq1,\nq2,a\n', { fileName: 'd.csv' }));
    expect(p).toEqual(['Row 2, field "answer": the expected answer is empty']);
  });

  it('reads multiple-choice items', () => {
    const items = [
      {
        id: 'm1',
        question: 'Capital of France?',
        choices: ['Lyon', 'Paris'],
        correct_choice: { label: 'B', text: 'Paris' },
      },
      {
        id: 'm2',
        question: 'Two plus two?',
        choices: [
          { label: 'A', text: '4' },
          { label: 'B', text: '5' },
        ],
        correct_choice: '4',
      },
    ];
    const d = ok(importDatasetText(JSON.stringify(items)));
    expect(d.items.find((x) => x.id === 'm1')).toMatchObject({
      correctChoice: 'B',
      answers: ['B'],
      choices: [
        { label: 'A', text: 'Lyon' },
        { label: 'B', text: 'Paris' },
      ],
    });
    expect(d.items.find((x) => x.id === 'm2')).toMatchObject({ correctChoice: 'A' });
  });

  it('joins a list of passages into one context and keeps other fields', () => {
    const d = ok(
      importDatasetText(JSON.stringify([{ question: 'q', answers: ['a'], context: ['p1', 'p2'], source: 'wiki' }])),
    );
    expect(d.items[0].context).toBe('p1\n[DOC] p2');
    expect(d.items[0].fields.source).toBe('wiki');
    expect(d.items[0].id).toMatch(/^h[0-9a-f]{16}$/);
  });

  it('takes mapping overrides and rejects unknown fields', () => {
    const text = JSON.stringify([{ q: 'x', gold: 'y' }]);
    expect(ok(importDatasetText(text, { mapping: { question: 'q', expected: 'gold' } })).items[0].answers).toEqual([
      'y',
    ]);
    expect(problems(importDatasetText(text, { mapping: { question: 'nope', expected: 'gold' } }))[0]).toMatch(
      /Field "nope": is mapped to question/,
    );
  });
});

describe('bad inputs get precise problems and nothing is half-imported', () => {
  it('names each row and field with what was wrong', () => {
    const rows = [
      { id: 'a', question: 'ok', answer: 'x' },
      { id: 'b', question: { text: 'no' }, answer: 'x' },
      { id: 'c', question: 'q' },
      { id: 'd', question: 'q', answer: [] },
      { id: 'e', question: 'q', answer: 'x', split: 'holdout' },
      { id: 'a', question: 'dup', answer: 'x' },
      7,
    ];
    const p = problems(importDatasetText(JSON.stringify(rows)));
    expect(p).toEqual(['Row 7: expected an object, got number 7']);
    const p2 = problems(importDatasetText(JSON.stringify(rows.slice(0, 6))));
    expect(p2).toEqual([
      'Row 2, field "question": the question must be text, got an object',
      'Row 3, field "answer": the expected answer is missing',
      'Row 4, field "answer": the expected answer is an empty list',
      'Row 5, field "split": unknown split "holdout" (use train, val or test)',
      'Row 6, field "id": duplicate id "a" (also used by row 1)',
    ]);
  });

  it('detects duplicate ids across splits', () => {
    const p = problems(importDatasetText(JSON.stringify({ train: qa(2), test: qa(1) })));
    expect(p).toEqual(['Test row 1, field "id": duplicate id "q0" (also used by train row 1)']);
  });

  it('detects duplicate content when there are no ids', () => {
    const p = problems(
      importDatasetText(
        JSON.stringify([
          { question: 'same', answer: 'x' },
          { question: 'same', answer: 'x' },
        ]),
      ),
    );
    expect(p[0]).toMatch(
      /^Row 2: duplicate id "h[0-9a-f]+" \(also used by row 1\) — these rows have the same content$/,
    );
  });

  it('says which fields are needed when none maps', () => {
    const p = problems(importDatasetText(JSON.stringify([{ foo: 1, bar: 2 }])));
    expect(p[0]).toMatch(/no field is mapped to the question/);
    expect(p[1]).toMatch(/no field is mapped to the expected answer/);
  });

  it('locates JSON syntax errors by line and column', () => {
    const p = problems(importDatasetText('[\n  {"question": "a", "answer": "b"},\n  {"question": oops}\n]'));
    expect(p[0]).toMatch(/^Line 3, column \d+: not valid JSON/);
  });

  it('requires a split on every row once some rows have one', () => {
    const p = problems(
      importDatasetText(
        JSON.stringify([
          { question: 'a', answer: 'x', split: 'train' },
          { question: 'b', answer: 'y' },
        ]),
      ),
    );
    expect(p).toEqual(['Row 2, field "split": the split is missing (other rows have one)']);
  });

  it('names the row without a split even after a bad row (issue #20 item 9)', () => {
    const rows = [
      { question: '', answer: 'x', split: 'train' },
      { question: 'b', answer: 'y', split: 'val' },
      { question: 'c', answer: 'z' },
    ];
    const p = problems(importDatasetText(JSON.stringify(rows)));
    expect(p).toContain('Row 3, field "split": the split is missing (other rows have one)');
    expect(p.some((x) => x.startsWith('Row 2, field "split"'))).toBe(false);
  });

  it('lists at most 100 problems and says the list was cut', () => {
    const rows = Array.from({ length: 500 }, (_, i) => ({ id: `x${i}`, question: '', answer: 'a' }));
    const r = importDatasetText(JSON.stringify(rows));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(100);
      expect(r.truncated).toBe(true);
    }
  });

  it('rejects empty files, scalars and unknown top-level keys', () => {
    expect(problems(importDatasetText('   '))).toEqual(['the file is empty']);
    expect(problems(importDatasetText('42', { format: 'json' }))[0]).toMatch(/expected a list of items/);
    expect(problems(importDatasetText('{"rows": []}'))[0]).toMatch(/found keys rows/);
  });

  it('a CSV with a good header and garbage rows stops at the hundredth problem', () => {
    const text = 'question,answer\n' + 'a,b,c,d\n'.repeat(2_000_000);
    const { value: r, cpuMs } = bestCpuTimed(() => importDatasetText(text, { fileName: 'x.csv' }), 3000);
    expect(cpuMs).toBeLessThan(3000);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.problems).toHaveLength(100);
      expect(r.truncated).toBe(true);
      expect(formatProblem(r.problems[0])).toBe('Row 2: Too many fields: expected 2 fields but parsed 4');
    }
  }, 60_000);

  it.each([
    ['JSON', () => '[' + '{"question":'.repeat(4_000_000)],
    ['JSONL', () => '{"a":1}\n' + '\u0001\u00ff{garbage'.repeat(5_000_000)],
    ['CSV', () => 'x'.repeat(10) + '\u0007,;"\n'.repeat(10_000_000)],
  ])('a 50 MB file of %s garbage is refused fast', (_kind, make) => {
    const text = make();
    expect(text.length).toBeGreaterThan(40_000_000);
    const { value: r, cpuMs } = bestCpuTimed(() => importDatasetText(text), 5000);
    expect(r.ok).toBe(false);
    expect(cpuMs).toBeLessThan(5000);
  }, 60_000); // the CPU time is the measure; building 50 MB strings on a busy machine takes wall time
});

describe('splits', () => {
  it('largest remainder matches the paper splits', () => {
    expect(largestRemainder(2000, [2, 1, 7])).toEqual([400, 200, 1400]);
    expect(largestRemainder(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(largestRemainder(5, [2, 1, 7])).toEqual([1, 0, 4]); // 1.0 / 0.5 / 3.5: the tie goes to the larger weight
    expect(largestRemainder(0, [2, 1, 7])).toEqual([0, 0, 0]);
  });

  it('parses ratios', () => {
    expect(parseRatio('2:1:7')).toEqual({ ok: true, ratio: [2, 1, 7] });
    expect(parseRatio('0.5, 0.25, 0.25')).toEqual({ ok: true, ratio: [0.5, 0.25, 0.25] });
    expect(parseRatio('1:2').ok).toBe(false);
    expect(parseRatio('0:0:0').ok).toBe(false);
  });

  it('partitions the items exactly and is stable under the seed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 9 })),
        fc.nat(10_000),
        (n, ratio, seed) => {
          const items = Array.from({ length: n }, (_, i) => i);
          const [a, b, c] = splitByRatio(items, ratio, seed);
          expect(a.length + b.length + c.length).toBe(n);
          expect([...a, ...b, ...c].sort((x, y) => x - y)).toEqual(items);
          expect(splitByRatio(items, ratio, seed)).toEqual([a, b, c]);
          const counts = largestRemainder(n, ratio);
          expect([a.length, b.length, c.length]).toEqual(counts);
        },
      ),
    );
  });

  it('is stable under the seed through import and changes with it', () => {
    const text = JSON.stringify(qa(60));
    expect(ok(importDatasetText(text, { splitSeed: 1 })).splits).toEqual(
      ok(importDatasetText(text, { splitSeed: 1 })).splits,
    );
    expect(ok(importDatasetText(text, { splitSeed: 1 })).splits).not.toEqual(
      ok(importDatasetText(text, { splitSeed: 2 })).splits,
    );
  });

  it('warns when validation is small', () => {
    const d = ok(importDatasetText(JSON.stringify(qa(50))));
    expect(d.splits.val).toHaveLength(5);
    expect(d.warnings.join(' ')).toMatch(/validation split has only 5 items/);
    expect(ok(importDatasetText(JSON.stringify(qa(300)))).warnings).toEqual([]);
  });
});

describe('mapping detection', () => {
  it('follows the alias order and uses each field once', () => {
    expect(detectMapping(['Prompt', 'ground_truth', '_id', 'Context'])).toEqual({
      id: '_id',
      question: 'Prompt',
      expected: 'ground_truth',
      context: 'Context',
    });
    expect(detectMapping(['input', 'output', 'task'])).toMatchObject({ question: 'input', expected: 'output' });
  });
});

describe('Agent Skills evals/evals.json (issue #23)', () => {
  it('imports each eval as an item: prompt → question, expected_output → answer, assertions → rubric', () => {
    const evals = {
      skill_name: 'pdf-forms',
      evals: [
        {
          id: 1,
          prompt: 'Fill the form',
          expected_output: 'A filled form',
          files: ['form.pdf'],
          assertions: ['Every field is filled', { text: 'Dates are ISO' }],
        },
        { id: 'two', prompt: 'Read the title', expected_output: 'Annual report', assertions: [] },
        { id: 3, prompt: 'Sign it', expected_output: 'Signed' },
      ],
    };
    const r = importDatasetText(JSON.stringify(evals), { ratio: [1, 1, 1] });
    if (!r.ok) throw new Error(r.problems.map(formatProblem).join('; '));
    const byId = new Map(r.dataset.items.map((i) => [i.id, i]));
    expect(byId.get('1')).toMatchObject({
      question: 'Fill the form',
      answers: ['A filled form'],
      rubric: '- Every field is filled\n- Dates are ISO',
    });
    expect(byId.get('two')).toMatchObject({ question: 'Read the title', answers: ['Annual report'] });
    expect(byId.get('two')?.rubric).toBeUndefined();
    expect(r.dataset.items).toHaveLength(3);
  });

  it('names a bad eval by its position', () => {
    const p = problems(
      importDatasetText(
        JSON.stringify({
          evals: [
            { id: 1, prompt: 'ok', expected_output: 'x' },
            'not an eval',
            { id: 3, prompt: '', expected_output: 'y' },
          ],
        }),
      ),
    );
    expect(p[0]).toMatch(/^Eval 2: expected an object/);
  });
});
