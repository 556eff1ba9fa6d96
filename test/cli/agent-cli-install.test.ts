// An agent CLI target writes the skill where the agent reads it (issue #39 H4): a package's
// references beside SKILL.md, and nothing else — a file section whose path leaves the skill's
// folder, or names no reference file, is refused before anything is written. It reads back only
// files inside the workspace (L4), and hands a task over as an argument the way it was meant (L2, L3).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentCliTarget, installSkill, workspaceFile } from '../../src/cli/agent-cli-target';

const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;

const SKILL_FILE = '.agents/skills/demo/SKILL.md';
const section = (path: string, text = 'x') => `<!-- FILE: ${path} -->\n${text}\n<!-- END FILE: ${path} -->\n`;

describe('installing a skill for an agent CLI', () => {
  it('writes SKILL.md with its references beside it', () => {
    const ws = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    installSkill(ws, SKILL_FILE, `# Demo\n\nRead references/codes.md.\n\n${section('references/codes.md', 'AMB-1')}`);
    expect(readFileSync(join(ws, SKILL_FILE), 'utf8')).toMatch(/^---\nname: demo\n[\s\S]*# Demo/);
    expect(readFileSync(join(ws, '.agents/skills/demo/references/codes.md'), 'utf8')).toBe('AMB-1\n');
  });

  it('keeps a workspace’s own context file and puts the skill after it', () => {
    const ws = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    writeFileSync(join(ws, 'AGENTS.md'), '# Project\n\nRun npm test before you finish.\n');
    installSkill(ws, 'AGENTS.md', '# Skill\n\nAnswer with the code.');
    expect(readFileSync(join(ws, 'AGENTS.md'), 'utf8')).toBe(
      '# Project\n\nRun npm test before you finish.\n\n# Skill\n\nAnswer with the code.',
    );
    const bare = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    installSkill(bare, 'AGENTS.md', '# Skill');
    expect(readFileSync(join(bare, 'AGENTS.md'), 'utf8')).toBe('# Skill');
  });

  it('refuses a section that would land outside the skill’s folder, or is no reference, and writes none of it', () => {
    const root = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    const ws = join(root, 'ws');
    for (const path of [
      '../../../../escaped.sh',
      `/${root.slice(1)}/abs.sh`,
      'scripts/run.sh',
      'references/../../x.md',
    ]) {
      expect(
        () => installSkill(ws, SKILL_FILE, `# Demo\n\n${section('references/ok.md')}${section(path)}`),
        path,
      ).toThrow(/which is no reference file inside its package/);
    }
    expect(readdirSync(root)).toEqual(['ws']);
    expect(existsSync(join(ws, '.agents/skills/demo/references/ok.md'))).toBe(false);
    expect(existsSync(join(ws, '.agents/skills/demo/scripts'))).toBe(false);
  });
});

describe('what an agent CLI target reads back (issue #39 L4)', () => {
  it('reads a file the agent wrote in its workspace, up to 1 MB, and never through a link', () => {
    const root = mkdtempSync(join(tmpdir(), 'skillwright-read-'));
    const ws = join(root, 'ws');
    mkdirSync(join(ws, 'out'), { recursive: true });
    writeFileSync(join(root, 'secret.txt'), 'the secret outside');
    writeFileSync(join(ws, 'answer.txt'), 'AMB-1');
    expect(workspaceFile(ws, 'answer.txt')).toBe('AMB-1');
    symlinkSync(join(root, 'secret.txt'), join(ws, 'linked.txt'));
    expect(workspaceFile(ws, 'linked.txt')).toBeNull();
    symlinkSync(root, join(ws, 'up'));
    expect(workspaceFile(ws, 'up/secret.txt')).toBeNull();
    expect(workspaceFile(ws, 'missing.txt')).toBeNull();
    writeFileSync(join(ws, 'big.txt'), 'x'.repeat(1_500_000));
    expect(workspaceFile(ws, 'big.txt')).toHaveLength(1_000_000);
  });
});

describe('a task as an argument (issue #39 L2, L3)', () => {
  const target = () =>
    agentCliTarget(
      {
        command: [process.execPath, FAKE_AGENT, '{task}'],
        skillFile: 'AGENTS.md',
        task: 'argument',
        passEnv: ['FAKE_AGENT_STATE'],
      },
      { timeoutMs: 20_000, maxRetries: 0 },
    );
  const ask = (content: string) =>
    target().solve({ skill: '# s', prompt: content, signal: new AbortController().signal });

  it('is never read as an option, and a NUL in it makes that item an error, not a failed run', async () => {
    const state = mkdtempSync(join(tmpdir(), 'skillwright-argv-'));
    const before = process.env.FAKE_AGENT_STATE;
    process.env.FAKE_AGENT_STATE = state;
    try {
      await ask('-c');
      expect(JSON.parse(readFileSync(join(state, 'argv.log'), 'utf8').trim())).toEqual([' -c']);
    } finally {
      if (before === undefined) delete process.env.FAKE_AGENT_STATE;
      else process.env.FAKE_AGENT_STATE = before;
    }
    const long = 'x'.repeat(128 * 1024);
    await expect(ask(long)).rejects.toMatchObject({
      kind: 'server',
      message: expect.stringMatching(/128 KiB.*"task": "stdin"/),
    });
    await expect(ask('a\u0000b')).rejects.toMatchObject({
      name: 'LlmError',
      kind: 'server',
      message: expect.stringMatching(/holds a NUL character/),
    });
  });
});
