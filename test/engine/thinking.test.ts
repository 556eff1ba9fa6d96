// A target and an optimizer that think aloud in <think> blocks (issue #23): the thinking stays in
// the stored answers, and the run learns exactly as with plain replies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import type { RunEvent } from '../../src/engine/events';

let plain: LlmTestServer;
let thinking: LlmTestServer;
beforeAll(async () => {
  [plain, thinking] = await Promise.all([startLlmServer({ harmfulRate: 0 }), startLlmServer({ harmfulRate: 0, thinkWrap: true })]);
});
afterAll(() => {
  plain.close();
  thinking.close();
});

describe('replies wrapped in thinking', () => {
  it('are scored and parsed on what follows the thinking, and kept whole in the trajectory', async () => {
    const config = { epochs: 1 };
    const a = await trainOnce({ url: plain.url, config });
    const b = await trainOnce({ url: thinking.url, config });
    expect(b.outcome.status).toBe('completed');
    const tests = (o: typeof a) => o.outcome.summary!.tests.map((t) => [t.skill, t.hard]);
    expect(tests(b)).toEqual(tests(a));
    expect(b.outcome.summary!.accepts).toBe(a.outcome.summary!.accepts);
    const rows = await b.store.listRollouts(b.runId);
    expect(rows.every((r) => r.response === '' || r.response.startsWith('<think>'))).toBe(true);
    expect(rows.some((r) => r.predicted === 'DECOY-0')).toBe(false);
    const calls = await b.store.listCalls(b.runId);
    expect(calls.filter((c) => !c.ok)).toEqual([]);
  });

  it('a target whose answers end at a limit (finish_reason: length) is named once in the run log', async () => {
    plain.set({ faults: [{ kind: 'truncated', stage: 'target', times: 3 }] });
    const warnings: string[] = [];
    const onEvent = (e: RunEvent) => {
      if (e.type === 'log' && e.level === 'warn') warnings.push(e.message);
    };
    const r = await trainOnce({ url: plain.url, config: { epochs: 1 }, onEvent });
    plain.set({ faults: [] });
    expect(r.outcome.status).toBe('completed');
    expect(warnings.filter((w) => /being cut off \(finish_reason: length\)/.test(w))).toHaveLength(1);
  });
});
