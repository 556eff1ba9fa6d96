// Workspace tasks (issue #42 item 4): a dataset's `workspace` and `check` fields read and validated
// with the row and field named, a stored item's read back the same way, and a check's outcome as
// the row's score and failure reason.
import { describe, expect, it } from 'vitest';
import { importDatasetText, type ImportResult } from '../../../src/core/dataset/dataset-import';
import { formatProblem } from '../../../src/core/dataset/dataset-types';
import { readStoredAgentSpec } from '../../../src/core/agent/agent-item';
import { checkResult, workspacePathProblem } from '../../../src/core/agent/workspace-task';
import { answerPartOf } from '../../../src/engine/trajectory';

const problems = (r: ImportResult) => (r.ok ? [] : r.problems.map(formatProblem));
const row = (fields: Record<string, unknown>) => ({ question: 'Make the test pass.', ...fields });

describe('a dataset’s workspace and check fields', () => {
  it('reads a folder, a .zip and a check (text or {command, timeout_s}); such an item needs no expected answer', () => {
    const r = importDatasetText(
      JSON.stringify([
        row({ id: 'a', workspace: 'tasks/a', check: 'node check.mjs' }),
        row({ id: 'b', workspace: './tasks/b.zip', check: { command: 'npm test', timeout_s: 5 } }),
      ]),
    );
    if (!r.ok) throw new Error(problems(r).join('\n'));
    const [a, b] = ['a', 'b'].map((id) => r.dataset.items.find((i) => i.id === id)!);
    expect(a.answers).toEqual([]);
    expect(a.agent).toEqual({ workspace: 'tasks/a', check: { command: 'node check.mjs', timeoutMs: 60_000 } });
    expect(b.agent).toEqual({ workspace: './tasks/b.zip', check: { command: 'npm test', timeoutMs: 5000 } });
    // The page cannot run them: the import says so instead of scoring them as unanswered.
    expect(r.dataset.warnings.join(' ')).toMatch(/2 item\(s\) carry a workspace or a check.*headless runner/);
  });

  it('names the row and field of every bad workspace and check, and imports nothing', () => {
    const p = problems(
      importDatasetText(
        JSON.stringify([
          row({ workspace: '../secrets', check: 'true' }),
          row({ workspace: '/etc', check: 'true' }),
          row({ workspace: 'a/../../b', check: 'true' }),
          row({ workspace: 'task.tar.gz', check: 'true' }),
          row({ workspace: 7, check: 'true' }),
          row({ workspace: 'ok', check: { command: '' } }),
          row({ workspace: 'ok', check: { command: 'x', timeout_s: 0 } }),
          row({ workspace: 'ok', check: { command: 'x', timeout: 3 } }),
          row({ workspace: 'C:\\tasks', check: 'true' }),
        ]),
      ),
    );
    expect(p).toEqual([
      `Row 1, field "workspace": "../secrets" leads outside the dataset's folder: a workspace must be inside it`,
      `Row 2, field "workspace": "/etc" is an absolute path: give it relative to the dataset's folder, inside it`,
      `Row 3, field "workspace": "a/../../b" leads outside the dataset's folder: a workspace must be inside it`,
      'Row 4, field "workspace": "task.tar.gz": only .zip archives are unpacked (or give a folder)',
      'Row 5, field "workspace": must be a path (text)',
      'Row 6, field "check": must be a shell command, or {"command": "…", "timeout_s": 60}',
      'Row 7, field "check": timeout_s must be a number of seconds above 0, at most 3600',
      'Row 8, field "check": "timeout" is not a check setting (use command and timeout_s)',
      `Row 9, field "workspace": "C:\\\\tasks" is an absolute path: give it relative to the dataset's folder, inside it`,
    ]);
  });

  it('reads a CSV’s check cell as the command, or as JSON settings', () => {
    const csv = 'id,question,workspace,check\na,Fix it,t/a,node check.mjs\nb,Fix it,t/b,"{""command"":""make"",""timeout_s"":2}"\n';
    const r = importDatasetText(csv, { fileName: 'd.csv' });
    if (!r.ok) throw new Error(problems(r).join('\n'));
    expect(r.dataset.items.map((i) => i.agent?.check)).toEqual(
      expect.arrayContaining([
        { command: 'node check.mjs', timeoutMs: 60_000 },
        { command: 'make', timeoutMs: 2000 },
      ]),
    );
  });

  it('a path that stays inside is fine; the folder itself is not a workspace', () => {
    expect(workspacePathProblem('a/../b')).toBeNull();
    expect(workspacePathProblem('./')).toMatch(/the dataset's folder itself/);
  });

  it('reads a stored item’s fields (a bundle: someone else’s file) with the same rules', () => {
    const good = readStoredAgentSpec({ workspace: 'w', check: { command: 'true', timeoutMs: 1500 } });
    expect(good).toEqual({ spec: { workspace: 'w', check: { command: 'true', timeoutMs: 1500 } }, problems: [] });
    const bad = readStoredAgentSpec({ workspace: '../../home', check: { command: 'x', timeoutMs: -1 } });
    expect(bad.problems).toEqual([
      `workspace: "../../home" leads outside the dataset's folder: a workspace must be inside it`,
      'check: timeout_s must be a number of seconds above 0, at most 3600',
    ]);
    expect(bad.spec).toEqual({});
  });
});

describe('a check’s outcome as the row’s score', () => {
  const base = { command: 'node check.mjs', timeoutMs: 5000 };
  it('passes on exit 0; fails otherwise with the tail of its output, and says when it timed out', () => {
    expect(checkResult({ ...base, exitCode: 0, timedOut: false, output: 'ok' })).toEqual({ hard: 1, soft: 1 });
    const failed = checkResult({ ...base, exitCode: 1, timedOut: false, output: `${'x'.repeat(5000)}\nexpected 3, got 4\n` });
    expect(failed.hard).toBe(0);
    expect(failed.failReason).toMatch(/^CHECK=0: `node check.mjs` failed with exit code 1: …x+\nexpected 3, got 4$/);
    expect(failed.failReason!.length).toBeLessThan(1600);
    const slow = checkResult({ ...base, exitCode: null, timedOut: true, output: '' });
    expect(slow).toEqual({ hard: 0, soft: 0, failReason: 'CHECK=0: `node check.mjs` timed out after 5 s' });
  });

  it('the analysts of final answers still see a check’s reason whole', () => {
    const reason = 'turn 2: EM=0: predicted x; CHECK=0: `make` failed with exit code 2: a; b';
    expect(answerPartOf(reason)).toBe('EM=0: predicted x; CHECK=0: `make` failed with exit code 2: a; b');
    expect(answerPartOf('CHECK=0: `make` timed out after 5 s')).toBe('CHECK=0: `make` timed out after 5 s');
  });
});
