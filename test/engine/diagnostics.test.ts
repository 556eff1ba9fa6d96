// Run diagnostics in the engine (issue #11): a run that accepts nothing says why in its summary.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce, INITIAL_SKILL } from '../support/harness';
import { ruleText, TOPICS } from '../support/rule-world';

const server = sharedLlmServer();

describe('diagnostics of a run that accepts nothing', () => {
  it('a perfect starting skill: nothing to beat, nothing failed', async () => {
    const perfect = `${INITIAL_SKILL}\n${TOPICS.slice(0, 8).map(ruleText).join('\n')}\n`;
    const { outcome } = await trainOnce({ url: server().url, initialSkill: perfect, config: { epochs: 1, failureOnly: true } });
    const d = outcome.summary!.diagnosis!;
    expect(d.causes.map((c) => c.cause)).toEqual(['already_perfect', 'no_failures']);
    expect(d.causes[1].steps).toEqual([1, 2]);
  });

  it('a gate rule nothing can pass: the rule refused every candidate that beat the mean', async () => {
    const { outcome, store, runId } = await trainOnce({ url: server().url, config: { epochs: 1, gateRule: 'significance', gateSignificanceK: 10 } });
    expect(outcome.summary!.accepts).toBe(0);
    const d = outcome.summary!.diagnosis!;
    expect(d.causes[0].cause).toBe('gate_rule');
    const refused = [];
    for (const s of await store.getSteps(runId)) {
      const gate = (await store.getArtifact(runId, `s${String(s.step).padStart(4, '0')}/gate`))?.value as { rule?: { allowed: boolean } | null };
      if (gate?.rule && !gate.rule.allowed) refused.push(s.step);
    }
    expect(d.causes[0].steps).toEqual(refused);
    expect(d.headline).toMatch(/the gate rule refused it/);
  });

  it('a run that learned has no diagnosis', async () => {
    const { outcome } = await trainOnce({ url: server().url, config: { epochs: 1 } });
    expect(outcome.summary!.accepts).toBeGreaterThan(0);
    expect(outcome.summary!.diagnosis).toBeUndefined();
  });
});
