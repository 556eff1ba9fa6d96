/**
 * Issue #9 item 21: a big skill must not multiply. Prompts are built only when their call can
 * start (at most the configured concurrency exist at once), and an analyst's prompt carries
 * the skill once, not once more inside every trajectory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import type { LlmPort, Role } from '../../src/engine/ports';
import { SKILL_STAND_IN } from '../../src/engine/trajectory';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer({ keepPrompts: true, latencyMs: 3 });
});
afterAll(() => srv.close());

/** Counts the calls handed to the real client and not yet answered, per role. */
function countInFlight(peak: Partial<Record<Role, number>>) {
  const active: Partial<Record<Role, number>> = {};
  return (llm: LlmPort): LlmPort => ({
    targetSettingsKey: () => llm.targetSettingsKey(),
    outputLimit: (role) => llm.outputLimit?.(role),
    async complete(req) {
      active[req.role] = (active[req.role] ?? 0) + 1;
      peak[req.role] = Math.max(peak[req.role] ?? 0, active[req.role]!);
      try {
        return await llm.complete(req);
      } finally {
        active[req.role]!--;
      }
    },
  });
}

describe('prompt size at scale', () => {
  it('builds prompts only for calls that can start, and shows the skill once per analyst prompt', async () => {
    const peak: Partial<Record<Role, number>> = {};
    const { outcome } = await trainOnce({
      url: srv.url,
      runId: 'lazy',
      config: { epochs: 1, targetConcurrency: 3, optimizerConcurrency: 2, minibatchSize: 4 },
      wrapLlm: countInFlight(peak),
    });
    expect(outcome.status).toBe('completed');
    // The batch has 20 items and the validation split 20: all of them used to be rendered at once.
    expect(peak.target).toBe(3);
    expect(peak.optimizer).toBeLessThanOrEqual(2);

    const analysts = srv.log.filter((l) => l.stage.startsWith('reflect_') && l.status === 200);
    expect(analysts.length).toBeGreaterThan(2);
    for (const { user } of analysts) {
      const skill = user!.slice(user!.indexOf('## Current Skill\n') + '## Current Skill\n'.length, user!.indexOf('\n\n## Edits Budget')).trim();
      expect(skill.length).toBeGreaterThan(20);
      expect(user!.split(skill).length - 1).toBe(1);
      const trajectories = user!.split('### Trajectory ').length - 1;
      expect(user!.split(SKILL_STAND_IN).length - 1).toBe(trajectories);
    }
  });
});
