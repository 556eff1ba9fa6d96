// Issue #45: a posterior verdict asks again every item in doubt at once — one round trip per round,
// however many items are in doubt — so a verdict with eight doubtful items takes as many round
// trips as one with a single doubtful item, not eight times as many. Counted on the wire: the
// longest chain of target requests each sent after the one before it was answered.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, SMALL_CONFIG, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { stepContext } from '../support/step-context';
import { createLlmPort } from '../../src/llm/openai-client';
import { rolloutPhase } from '../../src/engine/rollout';
import { weighSkills } from '../../src/engine/weigh';
import { noisePolicy } from '../../src/core/verdict/noise';
import { parseQuestion, ruleText, TOPICS } from '../../src/core/simulators/demo-world';
import type { LlmPort } from '../../src/engine/ports';

const server = sharedLlmServer();
/** Long enough that the requests of one round are all sent before any is answered, on a busy machine too. */
const LATENCY_MS = 250;

/** Each target request's send and answer times, so the chain of round trips can be read off. */
function timed(llm: LlmPort, calls: { start: number; end: number }[]): LlmPort {
  return {
    ...llm,
    complete: async (req) => {
      const call = { start: performance.now(), end: Infinity };
      if (req.role === 'target') calls.push(call);
      try {
        return await llm.complete(req);
      } finally {
        call.end = performance.now();
      }
    },
  };
}

/** The longest chain of requests each sent after the one before it was answered: the round trips waited. */
function roundTrips(calls: readonly { start: number; end: number }[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((c, i) => {
    const before = sorted.slice(0, i).flatMap((p, j) => (p.end <= c.start ? [depth[j]] : []));
    depth.push(1 + Math.max(0, ...before));
  });
  return Math.max(0, ...depth);
}

/**
 * The gate's weighing of a candidate that adds one topic's rule against the bare start, on `gained`
 * items of that topic (the candidate passes them, the start fails them) beside eight items of other
 * topics both fail. The target answers alike every time; the verdict assumes one flip in ten.
 */
async function weighGains(gained: number) {
  server().set({ latencyMs: LATENCY_MS });
  const data = worldDataset(200);
  const topicOf = (id: string) => parseQuestion(data.items.find((i) => i.id === id)!.question)?.topics.join('/');
  const ids = data.items.map((i) => i.id);
  const itemIds = [
    ...ids.filter((id) => topicOf(id) === TOPICS[0]).slice(0, gained),
    ...ids.filter((id) => topicOf(id) === TOPICS[5]).slice(0, 8),
  ];
  const calls: { start: number; end: number }[] = [];
  const llm = createLlmPort(
    {
      target: testEndpoint(server().url, 'sim-target', { concurrency: 32 }),
      optimizer: testEndpoint(server().url, 'sim-optimizer'),
    },
    { backoffBaseMs: 1 },
  );
  const ctx = await stepContext(server().url, `rounds-${gained}`, data, { targetConcurrency: 32 }, timed(llm, calls));
  const cand = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n`;
  const ref = await rolloutPhase(ctx, { phase: 'ref', skill: INITIAL_SKILL, itemIds });
  calls.length = 0;
  const w = await weighSkills(ctx, {
    phase: 'gate',
    ref: INITIAL_SKILL,
    cand,
    itemIds,
    refRows: ref.rows,
    policy: noisePolicy({ units: 20, minority: 4, samples: 40 }, 3),
    accept: ctx.config.gateConfidence,
    wave: itemIds.length,
    scoreAll: true,
    neutral: true,
    settleGains: true,
  });
  const repeats = await ctx.store.listRollouts(ctx.runId);
  const askedAgain = new Set(repeats.filter((r) => /\/r\d+$/.test(r.phase)).map((r) => r.itemId));
  return {
    // The candidate's first samples are one round trip; what follows are the verdict's rounds.
    verdictTrips: roundTrips(calls) - 1,
    recorded: ctx.verdictRounds,
    gainedAskedAgain: itemIds.slice(0, gained).filter((id) => askedAgain.has(id)).length,
    pBetter: w.posterior.pBetter,
    resampleCalls: w.resampleCalls,
  };
}

describe('a posterior verdict’s rounds', () => {
  it('ask every doubtful item at once: eight gains take one round trip, not eight', async () => {
    const eight = await weighGains(8);
    // Every gain was in doubt after its first answer: all eight are asked again in one round.
    expect(eight.gainedAskedAgain).toBe(8);
    expect(eight.verdictTrips).toBe(1);
    expect(eight.recorded).toEqual([8]);
    expect(eight.resampleCalls).toBe(8);
    expect(eight.pBetter).toBeGreaterThan(SMALL_CONFIG.gateConfidence);
  }, 60_000);

  it('chain only where an answer decides what is asked next: one gain takes two rounds, eight no more', async () => {
    const one = await weighGains(1);
    const eight = await weighGains(8);
    expect(one.gainedAskedAgain).toBe(1);
    // One gain's second answer is asked because its first left the verdict unsure: a chain of two.
    expect(one.verdictTrips).toBe(2);
    expect(eight.verdictTrips).toBeLessThanOrEqual(one.verdictTrips);
    // The rounds the engine records for the bench's bound are the ones on the wire.
    expect(one.recorded).toEqual([1, 1]);
  }, 60_000);
});
