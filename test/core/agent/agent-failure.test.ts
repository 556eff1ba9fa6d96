// An agent CLI's failure told from its own words (issue #42), as the real binaries printed them
// against the test server (test/fixtures/agent-streams/): refused keys, unknown models and setups
// a CLI refuses are fatal; rate limits and server errors, after the CLI's own retries, transient.
// The lines quoted are the error's, never the notices some CLIs print before it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { classifyAgentFailure, errorLines } from '../../../src/core/agent/agent-failure';

const DIR = new URL('../../fixtures/agent-streams/', import.meta.url).pathname;
const index = JSON.parse(readFileSync(`${DIR}index.json`, 'utf8')) as {
  name: string;
  stdout?: string;
  stderr?: string;
}[];
/** What a recorded run printed: standard error, then standard output, as the runner reads it. */
const printed = (name: string) => {
  const run = index.find((r) => r.name === name)!;
  return [run.stderr, run.stdout].map((f) => (f ? readFileSync(DIR + f, 'utf8') : '')).join('\n');
};

describe('an agent CLI’s failure, in its own words', () => {
  it.each([
    ['pi-401-print', 'auth'],
    ['qwen-401-text', 'auth'],
    ['qwen-401', 'auth'],
    ['codex-401', 'auth'],
    ['opencode-401', 'auth'],
    ['claude-401', 'auth'],
    ['claude-401-text', 'auth'],
    ['gemini-400-key', 'auth'],
    ['pi-404', 'not_found'],
    ['qwen-404', 'not_found'],
    ['codex-404', 'not_found'],
    ['claude-404', 'not_found'],
    ['codex-no-responses-api', 'not_found'],
    ['pi-429', 'transient'],
    ['pi-500-print', 'transient'],
    ['qwen-500-text', 'transient'],
    ['codex-429', 'transient'],
    ['codex-500', 'transient'],
    ['claude-429', 'transient'],
    ['claude-500', 'transient'],
  ])('%s is %s', (name, kind) => {
    expect(classifyAgentFailure(printed(name))).toBe(kind);
  });

  it('setups a CLI refuses, an outdated CLI and an expired login are fatal; a dropped stream is not', () => {
    expect(
      classifyAgentFailure(
        '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
      ),
    ).toBe('bad_request');
    expect(
      classifyAgentFailure('Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`'),
    ).toBe('bad_request');
    expect(
      classifyAgentFailure('OAuth token has expired. Please obtain a new token or refresh your existing token.'),
    ).toBe('auth');
    expect(classifyAgentFailure('Your credit balance is too low to access the Anthropic API.')).toBe('auth');
    expect(classifyAgentFailure('stream disconnected before completion: error sending request')).toBe('transient');
    expect(classifyAgentFailure('{"type":"result","duration_ms":401,"num_turns":404}')).toBe('transient');
  });
});

describe('the lines a fatal message quotes', () => {
  it('are the error, not the notices Gemini CLI prints first, nor a stack trace', () => {
    const quoted = errorLines(printed('gemini-400-key'));
    expect(quoted).toContain('API key not valid');
    expect(quoted).not.toMatch(/YOLO|Ripgrep|256-color|\bat \w+ \(file:/);
  });
  it('are the CLI’s error, whatever came before it', () => {
    expect(errorLines(printed('qwen-401-text'))).toBe('[API Error: 401 Incorrect API key provided.]');
    expect(errorLines(printed('claude-401-text'))).toBe('Invalid API key · Fix external API key');
    expect(errorLines('YOLO mode is enabled. All tool calls will be automatically approved.\nboom')).toBe('boom');
  });
});
