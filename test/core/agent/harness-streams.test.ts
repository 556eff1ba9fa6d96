// Each harness's JSON event stream, as the real binaries wrote it against the test server
// (test/fixtures/agent-streams/, index.json says which command and version), read into a
// trajectory: the skill loaded with the harness's own tools, the reference it named opened, the
// final answer, the tokens reported, and the harness's own error words when a call failed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { readHarnessStream } from '../../../src/core/agent/harness-streams';
import { HARNESSES, type HarnessName } from '../../../src/core/agent/harness-presets';
import { callsOf, finalAnswerOf } from '../../../src/core/agent/trajectory';

const DIR = new URL('../../fixtures/agent-streams/', import.meta.url).pathname;
const stream = (name: string) => readFileSync(`${DIR}${name}.jsonl`, 'utf8');
const REF = '- For amber specimens, use the prefix AMB9: answer AMB9-<specimen number>.';

describe('a harness’s event stream of a run that loaded the skill', () => {
  const cases: [HarnessName, string, string[]][] = [
    ['pi', 'pi-skill-ok', ['read', 'read']],
    ['qwen', 'qwen-skill-ok', ['skill', 'read_file']],
    ['codex', 'codex-skill-ok', ['shell', 'shell']],
  ];
  it.each(cases)('%s: the calls it made, their results, the answer and its tokens', (harness, file, tools) => {
    const run = readHarnessStream(harness, stream(file));
    expect(run.errors).toEqual([]);
    expect(run.answer).toBe('Looking at the question and the rules.\n<answer>AMB9-104</answer>');
    expect(finalAnswerOf(run.entries)).toBe(run.answer);
    const calls = callsOf(run.entries);
    expect(calls.map((c) => c.name)).toEqual(tools);
    // The last call opened the reference the skill named, and got its rule back.
    expect(calls[1].arguments).toContain('references/codes.md');
    expect(calls[1].result).toContain(REF);
    expect(calls.every((c) => !c.error)).toBe(true);
    // Each call is answered in the turn that asked for it, one turn per model message.
    expect(run.entries.filter((e) => e.kind === 'assistant').map((e) => e.turn)).toEqual([1, 2, 3]);
    expect(run.usage?.inputTokens).toBeGreaterThan(1000);
    expect(run.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('pi reports cost; a failed OpenCode skill call is an error result, and its answer is still read', () => {
    expect(readHarnessStream('pi', stream('pi-skill-ok')).usage).toMatchObject({ costUsd: 0 });
    const oc = readHarnessStream('opencode', stream('opencode-ok'));
    expect(callsOf(oc.entries)).toMatchObject([{ name: 'skill', error: true, result: 'ripgrep execution failed' }]);
    expect(oc.answer).toBe('Looking at the question and the rules.\n<answer>unknown</answer>');
    expect(oc.usage).toMatchObject({ inputTokens: 4910, outputTokens: 36, costUsd: 0 });
  });
});

describe('a harness’s event stream of a run whose API call failed', () => {
  const cases: [HarnessName, string, string][] = [
    ['pi', 'pi-401', '401 Incorrect API key provided.'],
    ['pi', 'pi-404', '404 The model `sim-target` does not exist.'],
    ['pi', 'pi-429', '429 Rate limit reached.'],
    // Qwen Code calls it a success and gives the error as the answer: it is never an answer.
    ['qwen', 'qwen-401', '[API Error: 401 Incorrect API key provided.]'],
    ['qwen', 'qwen-404', '[API Error: 404 The model `sim-target` does not exist.]'],
    [
      'codex',
      'codex-401',
      'unexpected status 401 Unauthorized: Incorrect API key provided., url: http://127.0.0.1:8791/v1/responses',
    ],
    ['codex', 'codex-429', 'exceeded retry limit, last status: 429 Too Many Requests'],
    ['opencode', 'opencode-401', 'Incorrect API key provided.'],
    ['claude', 'claude-401', 'Invalid API key · Fix external API key'],
    [
      'claude',
      'claude-404',
      "There's an issue with the selected model (sim-target). It may not exist or you may not have access to it. Run --model to pick a different model.",
    ],
  ];
  it.each(cases)('%s (%s): no answer, the harness’s own words', (harness, file, words) => {
    const run = readHarnessStream(harness, stream(file));
    expect(run.answer).toBeNull();
    expect(run.errors).toContain(words);
  });

  it('Gemini CLI: the error in its closing result', () => {
    const run = readHarnessStream('gemini', stream('gemini-400-key'));
    expect(run.answer).toBeNull();
    expect(run.errors.join('\n')).toContain('API key not valid. Please pass a valid API key.');
  });

  it('Codex’s warning about an unknown model’s metadata is not the error', () => {
    const run = readHarnessStream('codex', stream('codex-skill-ok'));
    expect(run.errors).toEqual([]);
  });
});

describe('any harness’s reader', () => {
  it('never throws, and every result answers a call it made', () => {
    const line = fc.oneof(
      fc.string(),
      fc.json(),
      fc.constantFrom(...['pi-skill-ok', 'qwen-skill-ok', 'codex-skill-ok'].flatMap((f) => stream(f).split('\n'))),
    );
    fc.assert(
      fc.property(fc.constantFrom(...HARNESSES), fc.array(line, { maxLength: 30 }), (harness, lines) => {
        const run = readHarnessStream(harness, lines.join('\n'));
        const calls = new Set(
          run.entries.flatMap((e) => (e.kind === 'assistant' ? (e.toolCalls ?? []).map((c) => c.id) : [])),
        );
        expect(run.entries.every((e) => e.kind !== 'tool' || calls.has(e.callId))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
