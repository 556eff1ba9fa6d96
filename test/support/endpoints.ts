import type { EndpointConfig } from '../../src/llm/endpoint';

/** Endpoint settings for the test server: fast backoff, small timeouts. */
export function testEndpoint(url: string, model: string, patch: Partial<EndpointConfig> = {}): EndpointConfig {
  return { baseURL: url, apiKey: 'sk-test-key-123456', model, temperature: 0, concurrency: 8, maxRetries: 4, timeoutMs: 5000, ...patch };
}
