import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readToolSpecs, mergeTools } from '../../../src/core/agent/tool-spec';
import { matchesSubset, parseArguments } from '../../../src/core/agent/tool-match';
import { declaredResult, NO_RESULT } from '../../../src/core/agent/declarative-tools';
import {
  combineChecks,
  expectedCallChecks,
  forbiddenCallCheck,
  outOfTurnsCheck,
} from '../../../src/core/agent/trajectory-checks';
import { capResult, conversationLines, referencesRead } from '../../../src/core/agent/transcript';
import { onDemandSkill, readSkillFile } from '../../../src/core/agent/references-on-demand';
import { bundlePackage } from '../../../src/core/skill/skill-package';
import type { TrajectoryEntry } from '../../../src/core/agent/trajectory';
import { importDatasetText } from '../../../src/core/dataset/dataset-import';
import { formatProblem } from '../../../src/core/dataset/dataset-types';

const call = (turn: number, name: string, args: unknown, result = 'ok', error = false): TrajectoryEntry[] => [
  { kind: 'assistant', turn, content: '', toolCalls: [{ id: `c${turn}`, name, arguments: JSON.stringify(args) }] },
  { kind: 'tool', turn, callId: `c${turn}`, name, arguments: JSON.stringify(args), result, ...(error ? { error: true as const } : {}) },
];

describe('tool definitions', () => {
  it('reads the OpenAI wrapper and the bare function, and names each bad entry', () => {
    const r = readToolSpecs([
      { type: 'function', function: { name: 'lookup', description: 'd', parameters: { type: 'object' } } },
      { name: 'convert' },
      { name: 'bad name!' },
      { type: 'retrieval', name: 'x' },
      { name: 'lookup' },
      'nope',
    ]);
    expect(r.tools.map((t) => t.name)).toEqual(['lookup', 'convert']);
    expect(r.problems).toEqual([
      'tool 3 needs a name of letters, digits, "_" or "-" (at most 64)',
      'tool 4 has type "retrieval"; only "function" tools are supported',
      'tool 5: "lookup" is defined twice',
      'tool 6 must be an object {name, description, parameters}',
    ]);
    expect(mergeTools([{ name: 'a', description: '1' }], [{ name: 'a', description: '2' }, { name: 'b' }])).toEqual([
      { name: 'a', description: '1' },
      { name: 'b' },
    ]);
  });
});

describe('argument subsets', () => {
  it('matches stated keys only, scalars by their text, objects and lists deeply', () => {
    expect(matchesSubset({}, { code: '104' })).toBe(true);
    expect(matchesSubset({ code: 104 }, { code: '104', extra: 1 })).toBe(true);
    expect(matchesSubset({ code: '104' }, { code: 'AMB-104' })).toBe(false);
    expect(matchesSubset({ code: '104' }, {})).toBe(false);
    expect(matchesSubset({ q: { a: [1, 2] } }, { q: { a: [1, 2], b: 3 } })).toBe(true);
    expect(matchesSubset({ q: { a: [1, 2] } }, { q: { a: [2, 1] } })).toBe(false);
    expect(matchesSubset({ a: null }, { a: null })).toBe(true);
  });
  it('every object is a subset of itself (property)', () => {
    const json = fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)));
    fc.assert(fc.property(json, (o) => matchesSubset(o, o) && matchesSubset({}, o)));
  });
  it('reads arguments a model wrote, and says what is wrong with broken ones', () => {
    expect(parseArguments('{"a":1}')).toEqual({ ok: true, args: { a: 1 } });
    expect(parseArguments('')).toEqual({ ok: true, args: {} });
    expect(parseArguments('[1]')).toEqual({ ok: false, error: 'the arguments must be a JSON object' });
    expect(parseArguments('{a:')).toMatchObject({ ok: false, error: expect.stringContaining('not valid JSON') });
  });
  it('answers a declared tool from the first matching result', () => {
    const rules = [
      { name: 'lookup', arguments: { code: '104' }, result: 'Amber' },
      { name: 'lookup', result: 'any lookup' },
    ];
    expect(declaredResult(rules, 'lookup', { code: 104 })).toBe('Amber');
    expect(declaredResult(rules, 'lookup', { code: '999' })).toBe('any lookup');
    expect(declaredResult(rules, 'convert', {})).toBe(NO_RESULT);
  });
});

describe('trajectory checks', () => {
  const t = [...call(1, 'search_orders', { customer: 'C-1' }), ...call(2, 'refund', { order: 'A9' })];
  it('expected calls match by name and argument subset, and say what was called instead', () => {
    const [ok, wrongArgs, missing] = expectedCallChecks(t, [
      { name: 'search_orders' },
      { name: 'refund', arguments: { order: 'A8' } },
      { name: 'lookup' },
    ]);
    expect(ok).toEqual({ hard: 1, soft: 1 });
    expect(wrongArgs.failReason).toBe('never called refund with {"order":"A8"} (turn 2 called refund({"order":"A9"}))');
    expect(missing.failReason).toBe('never called lookup');
  });
  it('a forbidden call names its turn', () => {
    expect(forbiddenCallCheck(t, ['refund'])).toEqual([
      { hard: 0, soft: 0, failReason: 'turn 2: called forbidden tool refund({"order":"A9"})' },
    ]);
    expect(forbiddenCallCheck(t, ['delete'])).toEqual([{ hard: 1, soft: 1 }]);
    expect(forbiddenCallCheck(t, undefined)).toEqual([]);
  });
  it('running out of turns names the last call; checks combine to all-or-nothing hard and a mean soft', () => {
    expect(outOfTurnsCheck(t, 2).failReason).toBe('ran out of turns (2 turns; last: turn 2 called refund({"order":"A9"}))');
    const c = combineChecks([{ hard: 1, soft: 1 }, { hard: 0, soft: 0.5, failReason: 'x' }, { hard: 0, soft: 0, failReason: 'y' }]);
    expect(c).toEqual({ hard: 0, soft: 0.5, failReason: 'x; y' });
    expect(combineChecks([{ hard: 1, soft: 1 }])).toEqual({ hard: 1, soft: 1 });
  });
});

describe('transcripts and references', () => {
  it('renders turns, calls and capped results; lists references read', () => {
    const entries: TrajectoryEntry[] = [
      ...call(1, 'read_file', { path: 'references/units.md' }, 'x'.repeat(50)),
      ...call(2, 'read_file', { path: 'references/none.md' }, 'Error: no file', true),
      { kind: 'assistant', turn: 3, content: '<answer>4000</answer>' },
    ];
    expect(conversationLines(entries, 10)).toEqual([
      '[tool call turn 1] read_file({"path":"references/units.md"})',
      '[tool result turn 1] xxxxxxxxxx…[cut, 50 chars]',
      '[tool call turn 2] read_file({"path":"references/none.md"})',
      '[tool error turn 2] Error: no …[cut, 14 chars]',
      '[assistant turn 3] <answer>4000</answer>',
    ]);
    expect(referencesRead(entries)).toEqual(['references/units.md']);
    expect(capResult('short', 10)).toBe('short');
  });
  it('on demand, the prompt holds SKILL.md and the file list; read_file serves the rolled-out version', () => {
    const bundle = bundlePackage('# Skill\n\nRead the units.\n', [{ path: 'references/units.md', text: 'kg × 1000' }]);
    const view = onDemandSkill(bundle, [{ path: 'scripts/run.sh', text: 'echo hi\n' }])!;
    expect(view.promptSkill).toContain('# Skill');
    expect(view.promptSkill).not.toContain('kg × 1000');
    expect(view.promptSkill).toContain('- references/units.md\n- scripts/run.sh');
    expect(readSkillFile(view, { path: './references/units.md' })).toEqual({ result: 'kg × 1000\n' });
    expect(readSkillFile(view, { path: 'scripts/run.sh' })).toEqual({ result: 'echo hi\n' });
    expect(readSkillFile(view, { path: 'x.md' })).toEqual({
      result: 'Error: no file "x.md" in this skill; its files: SKILL.md, references/units.md, scripts/run.sh',
      error: true,
    });
    expect(onDemandSkill('# Just one file\n')).toBeNull();
  });
});

describe('datasets with tools (issue #30)', () => {
  it('reads dataset-level tools and the items’ tool fields; an item with tool checks needs no answer', () => {
    const r = importDatasetText(
      JSON.stringify({
        tools: [{ type: 'function', function: { name: 'lookup' } }],
        items: [
          { id: 'a', question: 'Q1?', answer: 'A', tool_results: [{ name: 'lookup', arguments: { c: 1 }, result: { n: 'x' } }] },
          { id: 'b', question: 'Q2?', expected_tool_calls: [{ name: 'lookup', arguments: { c: 2 } }], forbidden_tool_calls: ['refund'] },
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.dataset.tools).toEqual([{ name: 'lookup' }]);
    const a = r.dataset.items.find((i) => i.id === 'a')!;
    const b = r.dataset.items.find((i) => i.id === 'b')!;
    expect(a.agent).toEqual({ toolResults: [{ name: 'lookup', arguments: { c: 1 }, result: '{"n":"x"}' }] });
    expect(b.answers).toEqual([]);
    expect(b.agent).toEqual({ expectedToolCalls: [{ name: 'lookup', arguments: { c: 2 } }], forbiddenToolCalls: ['refund'] });
  });
  it('names the row and field of every bad tool field, and refuses the file whole', () => {
    const r = importDatasetText(
      JSON.stringify({
        tools: [{ name: 'ok' }, { name: '' }],
        items: [
          { question: 'Q1?', answer: 'A', tool_results: [{ arguments: {} }] },
          { question: 'Q2?', answer: 'A', expected_tool_calls: 'lookup' },
          { question: 'Q3?', answer: 'A', forbidden_tool_calls: [{}] },
          { question: 'Q4?' },
        ],
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(formatProblem)).toEqual([
      'Field "tools": tool 2 needs a name of letters, digits, "_" or "-" (at most 64)',
    ]);
    const r2 = importDatasetText(
      JSON.stringify([
        { question: 'Q1?', answer: 'A', tool_results: [{ arguments: {} }] },
        { question: 'Q2?', answer: 'A', expected_tool_calls: 'lookup' },
        { question: 'Q3?', answer: 'A', forbidden_tool_calls: [{}] },
        { question: 'Q4?' },
      ]),
    );
    expect(r2.ok).toBe(false);
    if (r2.ok) return;
    expect(r2.problems.map(formatProblem)).toEqual([
      'Row 1, field "tool_results": entry 1 needs a name',
      'Row 2, field "expected_tool_calls": must be a list of {name, arguments?}',
      'Row 3, field "forbidden_tool_calls": entry 1 must be a tool name',
      'Row 4, field "answer": the expected answer is missing',
    ]);
  });
  it('leaves a single-call dataset’s ids as they were', () => {
    const plain = importDatasetText(JSON.stringify([{ question: 'Q?', answer: 'A' }]));
    const tooled = importDatasetText(JSON.stringify([{ question: 'Q?', answer: 'A', tool_results: [{ name: 'x', result: 'y' }] }]));
    expect(plain.ok && tooled.ok).toBe(true);
    if (!plain.ok || !tooled.ok) return;
    expect(plain.dataset.items[0].id).toBe('h' + plain.dataset.items[0].id.slice(1));
    expect(tooled.dataset.items[0].id).not.toBe(plain.dataset.items[0].id);
  });
});

describe('an agent’s cases in evals.json (issue #30)', () => {
  it('carry their tools and checks out, and read back to the same items', async () => {
    const { toEvalsFile } = await import('../../../src/core/report/evals-export');
    const source = {
      tools: [{ type: 'function', function: { name: 'lookup', description: 'd' } }],
      items: [
        { id: 'a', question: 'Q1?', answer: 'A', tool_results: [{ name: 'lookup', result: 'r' }] },
        { id: 'b', question: 'Q2?', expected_tool_calls: [{ name: 'lookup' }], forbidden_tool_calls: ['refund'] },
        { id: 'c', question: 'Q3?', answer: 'C' },
      ],
    };
    const r = importDatasetText(JSON.stringify(source), { ratio: [1, 1, 1] });
    if (!r.ok) throw new Error('import failed');
    const file = toEvalsFile({ skillName: 'parts', items: r.dataset.items, tools: r.dataset.tools });
    expect(file.tools).toEqual([{ type: 'function', function: { name: 'lookup', description: 'd' } }]);
    const b = file.evals.find((e) => e.id === 'b')!;
    expect(b.expected_output).toBeUndefined();
    expect(b.forbidden_tool_calls).toEqual(['refund']);
    const back = importDatasetText(JSON.stringify(file), { ratio: [1, 1, 1] });
    if (!back.ok) throw new Error(JSON.stringify(back.problems));
    expect(back.dataset.tools).toEqual(r.dataset.tools);
    const byId = (d: typeof r.dataset, id: string) => d.items.find((i) => i.id === id)!;
    for (const id of ['a', 'b', 'c']) {
      expect(byId(back.dataset, id).agent).toEqual(byId(r.dataset, id).agent);
      expect(byId(back.dataset, id).answers).toEqual(byId(r.dataset, id).answers);
    }
  });
});

describe('kept files an agent may read', () => {
  it('offers the package’s text files and leaves binary ones out', async () => {
    const { readableKeptFiles } = await import('../../../src/core/agent/package-text-files');
    const { strFromU8, strToU8 } = await import('fflate');
    const asset = (path: string, bytes: Uint8Array) => ({ path, data: strFromU8(bytes, true) });
    const files = readableKeptFiles({
      assets: [
        asset('scripts/run.sh', strToU8('echo “hi”\n')),
        asset('assets/logo.png', new Uint8Array([137, 80, 78, 71, 0, 1, 2])),
      ],
    });
    expect(files).toEqual([{ path: 'scripts/run.sh', text: 'echo “hi”\n' }]);
    expect(readableKeptFiles(undefined)).toEqual([]);
  });
});

describe('a loop’s failure reason', () => {
  it('names the first two calls and counts the rest', () => {
    const loop = [1, 2, 3, 4].flatMap((t) => call(t, 'lookup', { code: 'A-1' }));
    expect(expectedCallChecks(loop, [{ name: 'lookup', arguments: { code: '1' } }])[0].failReason).toBe(
      'never called lookup with {"code":"1"} (turn 1 called lookup({"code":"A-1"}), turn 2 called lookup({"code":"A-1"}) and 2 more)',
    );
  });
});

describe('an agent run’s report (issue #30)', () => {
  it('shows the exported skill’s test trajectories, failures first, every text escaped', async () => {
    const { reportTrajectories } = await import('../../../src/core/agent/report-trajectories');
    const { renderRunReport } = await import('../../../src/core/report/run-report');
    const row = (itemId: string, hard: number, phase = 'test/best') => ({
      itemId,
      phase,
      status: 'ok',
      hard,
      turns: 2,
      ...(hard ? {} : { failReason: 'never called <script>' }),
      trajectory: [...call(1, 'lookup', { code: '<b>' }, '<img src=x>'), { kind: 'assistant' as const, turn: 2, content: 'done' }],
    });
    const picked = reportTrajectories([row('p1', 1), row('f1', 0), row('x', 0, 's0001/rollout'), row('f2', 0)], 400, { failed: 1, passed: 1 });
    expect(picked.map((t) => [t.itemId, t.passed])).toEqual([['f1', false], ['p1', true]]);
    const html = renderRunReport({
      name: 'r', status: 'completed', createdAt: 'now', datasetName: 'd', targetModel: 't', optimizerModel: 'o', config: {},
      baseline: 0, steps: [], gates: [], tests: [], usage: {}, totalCostUsd: null, bestSkill: '# s',
      agents: { turns: 2.5, trajectories: picked },
    });
    expect(html).toContain('<h2>Agents: trajectories</h2>');
    expect(html).toContain('took 2.5 turns per item');
    expect(html).toContain('never called &lt;script&gt;');
    expect(html).toContain('[tool result turn 1] &lt;img src=x&gt;');
    expect(html).not.toMatch(/<img|<script|<b>/);
  });
});
