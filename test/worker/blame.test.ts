// Edit blame (issue #11) through the worker API, on a run trained over the SDK and the test
// server: each line of a skill version is traced to the version that wrote it, and a step's lines
// carry the edit, the analysts' reasoning, the train items that failed and the validation items fixed.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { newRun, openTab } from '../support/api-harness';
import { INITIAL_SKILL } from '../support/harness';

const server = sharedLlmServer();

describe('edit blame', () => {
  it('traces every line of the best skill, and a line added by hand to "edited"', async () => {
    server().set({ harmfulRate: 0 });
    const url = server().url;
    const tab = await openTab();
    const runId = await newRun(tab.remote, url, { epochs: 1 });
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } }, false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
    const run = await tab.remote.getRun(runId);
    if (!run.ok) throw new Error(run.error.message);
    const best = run.detail.bestSkill;
    const r = await tab.remote.blameSkill(runId, best);
    if (!r.ok) throw new Error(r.error.message);
    const { lines, sources, ranges } = r.blame;
    const text = best.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(text.length);
    // The starting skill's lines are its own; every rule line came from an accepted step.
    const initialLines = INITIAL_SKILL.replace(/\n$/, '').split('\n').filter(Boolean);
    for (const l of lines.filter((x) => initialLines.includes(text[x.line - 1]))) expect(l.key).toBe('initial_skill');
    const ruleLines = lines.filter((l) => text[l.line - 1].startsWith('- For '));
    expect(ruleLines.length).toBeGreaterThan(0);
    for (const l of ruleLines) {
      const src = sources[l.key];
      expect(src.kind).toBe('step');
      expect(src.action).toMatch(/^accept/);
      expect(l.edit?.content).toContain(text[l.line - 1]);
      expect(l.analysts?.[0]).toMatch(/no rule for/);
      expect(src.failingItems!.length).toBeGreaterThan(0);
      expect(src.fixedItems!.length).toBeGreaterThan(0);
    }
    expect(ranges[0]).toMatchObject({ start: 1, key: 'initial_skill' });
    // A line typed after training belongs to no step.
    const edited = `${best}- My own rule.\n`;
    const e = await tab.remote.blameSkill(runId, edited);
    if (!e.ok) throw new Error(e.error.message);
    expect(e.blame.lines[e.blame.lines.length - 1]).toMatchObject({ key: 'edited' });
    expect(e.blame.sources.edited.label).toBe('Edited outside training');
    // The HTML report carries the same blame for the best skill.
    const report = await tab.remote.exportReport(runId);
    if (!report.ok) throw new Error(report.error.message);
    const html = await report.file.text();
    expect(html).toContain('Where each line of the best skill came from');
    expect(html).toMatch(/<td>Step \d+ \(accept[^)]*\)<\/td><td><code>\n?- For [^<]*<\/code><\/td><td>append edit — The skill has no rule for /);
    expect(await tab.remote.blameSkill('nope', best)).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    tab.close();
  });
});
