// Issue #9 item 10: a score carried over from another skill is never taken as measured.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, SMALL_CONFIG, trainOnce, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { createContext } from '../../src/engine/context';
import { modelTarget } from '../../src/engine/target/model-target';
import { Meter } from '../../src/engine/meter';
import { initialRunState } from '../../src/engine/run/trainer';
import { scoreOnSelection } from '../../src/engine/validation-score';
import { skillHash } from '../../src/core/basics/hash';

const server = sharedLlmServer();

describe('measured scores', () => {
  it('scoreOnSelection reuses a carried score for the gate, but measures when asked to', async () => {
    const config = { ...SMALL_CONFIG };
    const data = worldDataset(100);
    const llm = createLlmPort({ target: testEndpoint(server().url, 'sim-target'), optimizer: testEndpoint(server().url, 'sim-optimizer') }, { backoffBaseMs: 1 });
    const ctx = await createContext({ runId: 'm', config, llm, store: new MemoryRunStore(), prompts: loadPrompts(), items: data.items, meter: new Meter({}, {}), signal: new AbortController().signal, emit: () => {}, now: () => Date.now(), target: modelTarget });
    const state = initialRunState({ runId: 'm', config, data, initialSkill: INITIAL_SKILL }, 0);
    const skill = `${INITIAL_SKILL}\n- a changed line\n`;
    state.selectionCache[await skillHash(skill)] = { hard: 0.9, soft: 0.9, n: 20, complete: true, carried: true };
    const reused = await scoreOnSelection(ctx, state, data, 'x/gate', skill);
    expect(reused).toMatchObject({ cacheHit: true, calls: 0, gate: 0.9 });
    const measured = await scoreOnSelection(ctx, state, data, 'final', skill, { measured: true });
    expect(measured.cacheHit).toBe(false);
    expect(measured.calls).toBe(20);
    expect(measured.gate).toBe(0); // the starting skill knows no rule
    expect(state.selectionCache[await skillHash(skill)]).toMatchObject({ hard: 0, complete: true });
    expect(state.selectionCache[await skillHash(skill)].carried).toBeUndefined();
  });

  it('a force-injected slow update is measured, not credited with the old skill\'s score', async () => {
    const { store, runId, outcome } = await trainOnce({ url: server().url, config: { slowUpdateGated: false, evalTest: false, settledStop: 0 } });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const e2 = state.epochStats.find((e) => e.epoch === 2)!;
    expect(e2.slowUpdate?.action).toBe('force_inject');
    const hash = e2.slowUpdate!.candidateHash!;
    expect(state.selectionCache[hash].carried).toBeUndefined();
    expect(e2.slowUpdate!.gateScore).toBeCloseTo(state.selectionCache[hash].hard, 12);
    const rows = (await store.listRollouts(runId)).filter((r) => r.phase === 'e02/measure');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.skillHash === hash)).toBe(true);
  });
});
