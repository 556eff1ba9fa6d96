// Steering (issue #11): "improve this version with my feedback" — one optimizer call through the
// SDK turns feedback into bounded edits; the candidate comes back, nothing is stored.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { openTab } from '../support/api-harness';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { SLOW_UPDATE_END, SLOW_UPDATE_START } from '../../src/core/skill/protected-regions';

const server = sharedLlmServer();

describe('improve with my feedback', () => {
  it('turns feedback into edits applied outside the protected block, and stores nothing', async () => {
    const tab = await openTab();
    const url = server().url;
    const endpoints = { target: { baseURL: url, model: 'sim-target' }, optimizer: { baseURL: url, model: 'sim-optimizer' } };
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } }, false);
    const skill = `# Skill\n\n- Be brief.\n\n${SLOW_UPDATE_START}\n- guidance\n${SLOW_UPDATE_END}\n`;
    const feedback = 'It keeps adding words.\n- Give only the code, with no extra words.\n- Be brief.';
    const r = await tab.remote.improveWithFeedback({ skill, feedback, config: DEFAULT_RUN_CONFIG, endpoints });
    if (!r.ok) throw new Error(r.error.message);
    expect(r).toMatchObject({ proposed: 1, applied: 1 }); // "- Be brief." is already there
    expect(r.candidate).toContain('- Give only the code, with no extra words.');
    // Appended before the protected block, which is untouched.
    expect(r.candidate.indexOf('- Give only the code')).toBeLessThan(r.candidate.indexOf(SLOW_UPDATE_START));
    expect(r.candidate.slice(r.candidate.indexOf(SLOW_UPDATE_START))).toBe(skill.slice(skill.indexOf(SLOW_UPDATE_START)));
    expect(server().log.filter((e) => e.stage === 'feedback_edits')).toHaveLength(1);
    expect(await tab.remote.listRuns()).toEqual([]);
    expect(await tab.remote.improveWithFeedback({ skill, feedback: '  ', config: DEFAULT_RUN_CONFIG, endpoints })).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    tab.close();
  });
});
