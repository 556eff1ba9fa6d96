import { afterAll, beforeAll, beforeEach } from 'vitest';
import { DEFAULTS, startLlmServer, type LlmTestServer } from './llm-server';

/**
 * One test server for a test file, reset before each test (no faults, no latency, no key check).
 * Returns a getter: the server exists only once the file's tests start.
 */
export function sharedLlmServer(): () => LlmTestServer {
  let srv: LlmTestServer | undefined;
  beforeAll(async () => {
    srv = await startLlmServer();
  });
  afterAll(() => srv?.close());
  beforeEach(() => {
    srv!.set({ faults: [], latencyMs: 0, harmfulRate: DEFAULTS.harmfulRate, apiKey: undefined, keepPrompts: false });
    srv!.log.length = 0;
  });
  return () => srv!;
}
