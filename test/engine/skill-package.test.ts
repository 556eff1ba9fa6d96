import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, trainOnce } from '../support/harness';
import { ruleKey, ruleText, topicCode, TOPICS } from '../support/rule-world';
import { bundlePackage, splitBundle } from '../../src/core/skill-package';

const server = sharedLlmServer();

/** A reference file that states four topics' codes wrongly: the fix belongs in that file. */
const WRONG = TOPICS.slice(0, 4);
const wrongCode = (t: string) => `${topicCode(t).slice(0, 3)}${(Number(topicCode(t).slice(3)) + 1) % 10}`;
const CODES = `# Codes\n\n${WRONG.map((t) => `- For ${t} specimens, use the prefix ${wrongCode(t)}: answer ${wrongCode(t)}-<specimen number>.`).join('\n')}\n`;
const STYLE = '# Style\n\nWrite the code in capitals.\n';

describe('training a skill package (issue #23 item 1)', () => {
  it('fixes wrong facts in the reference file that holds them, and leaves the other file alone', async () => {
    const initialSkill = bundlePackage(INITIAL_SKILL, [
      { path: 'references/codes.md', text: CODES },
      { path: 'references/style.md', text: STYLE },
    ]);
    server().set({ keepPrompts: true });
    const { outcome, store, runId } = await trainOnce({ url: server().url, initialSkill, config: { epochs: 1 } });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const { main, files } = splitBundle(state.gate.bestSkill);
    expect(files.map((f) => f.path)).toEqual(['references/codes.md', 'references/style.md']);
    const codes = files[0].text;
    const fixed = WRONG.filter((t) => codes.includes(ruleText(t).slice(2)));
    expect(fixed.length).toBeGreaterThan(0);
    for (const t of fixed) {
      expect(codes).not.toContain(`prefix ${wrongCode(t)}`);
      expect(main).not.toContain(ruleKey(t)); // fixed where it was written, not repeated in SKILL.md
    }
    expect(files[1].text).toBe(STYLE);
    expect(state.gate.bestScore).toBeGreaterThan(state.baselineScore ?? 0);
    // The optimizer was told the skill is a package, and its edits named the file.
    const reflect = server().log.find((e) => e.stage === 'reflect_failure')!;
    expect(reflect.system).toContain('This skill is a package of files: SKILL.md, references/codes.md, references/style.md.');
    expect(reflect.user).toContain('<!-- FILE: references/codes.md -->');
    const calls = await store.listCalls(runId);
    expect(calls.some((c) => c.raw.includes('"file":"references/codes.md"'))).toBe(true);
    server().set({ keepPrompts: false });
  });
});
