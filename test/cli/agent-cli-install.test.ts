// An agent CLI target writes the skill where the agent reads it (issue #39 H4): a package's
// references beside SKILL.md, and nothing else — a file section whose path leaves the skill's
// folder, or names no reference file, is refused before anything is written.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installSkill } from '../../src/cli/agent-cli-target';

const SKILL_FILE = '.agents/skills/demo/SKILL.md';
const section = (path: string, text = 'x') => `<!-- FILE: ${path} -->\n${text}\n<!-- END FILE: ${path} -->\n`;

describe('installing a skill for an agent CLI', () => {
  it('writes SKILL.md with its references beside it', () => {
    const ws = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    installSkill(ws, SKILL_FILE, `# Demo\n\nRead references/codes.md.\n\n${section('references/codes.md', 'AMB-1')}`);
    expect(readFileSync(join(ws, SKILL_FILE), 'utf8')).toMatch(/^---\nname: demo\n[\s\S]*# Demo/);
    expect(readFileSync(join(ws, '.agents/skills/demo/references/codes.md'), 'utf8')).toBe('AMB-1\n');
  });

  it('refuses a section that would land outside the skill’s folder, or is no reference, and writes none of it', () => {
    const root = mkdtempSync(join(tmpdir(), 'skillwright-install-'));
    const ws = join(root, 'ws');
    for (const path of ['../../../../escaped.sh', `/${root.slice(1)}/abs.sh`, 'scripts/run.sh', 'references/../../x.md']) {
      expect(() => installSkill(ws, SKILL_FILE, `# Demo\n\n${section('references/ok.md')}${section(path)}`), path).toThrow(
        /which is no reference file inside its package/,
      );
    }
    expect(readdirSync(root)).toEqual(['ws']);
    expect(existsSync(join(ws, '.agents/skills/demo/references/ok.md'))).toBe(false);
    expect(existsSync(join(ws, '.agents/skills/demo/scripts'))).toBe(false);
  });
});
